//! `run_code` end to end: scripts that call tools through the executor,
//! and scripts that try to break out or run forever. Every run must end
//! within its limits with an answer paired to its call, saying which limit
//! ended it, and every inner call must be a call of its own.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_code::{CodeLimits, CodeMode};
use tool_core::approval::{Approvals, Decision};
use tool_core::executor::{BeforeCall, HookDecision};
use tool_core::{
    Json, RunOptions, ToolCall, ToolParams, ToolRegistry, ToolResultMessage, execute_tool_call,
    tool,
};

/// Look up an employee's expenses this month, in euros
#[tool(read_only)]
async fn expenses(
    /// The employee's number
    employee: u32,
) -> Result<String, String> {
    if employee == 13 {
        return Err("no employee 13".to_owned());
    }
    Ok((employee * 100).to_string())
}

/// A budget.
#[derive(ToolParams, Debug)]
struct Budget {
    /// Euros a month
    limit: u32,
    /// The team
    team: String,
}

/// Look up an employee's budget
#[tool(read_only)]
async fn budget(employee: u32) -> Json<Budget> {
    Json(Budget {
        limit: 250 + employee,
        team: "core".to_owned(),
    })
}

fn registry(limits: CodeLimits) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(ExpensesTool).unwrap();
    tools.register(BudgetTool).unwrap();
    CodeMode::new().with_limits(limits).registry(tools).unwrap()
}

async fn run_with(tools: &ToolRegistry, script: &str, options: RunOptions) -> ToolResultMessage {
    let call = ToolCall::new("run-1", "run_code", json!({ "code": script }));
    // Only there so a hang fails the test instead of stalling the suite.
    tokio::time::timeout(
        Duration::from_secs(30),
        execute_tool_call(&call, tools, options),
    )
    .await
    .expect("every run ends")
}

async fn run(script: &str) -> ToolResultMessage {
    run_with(&registry(CodeLimits::default()), script, RunOptions::new()).await
}

fn text(result: &ToolResultMessage) -> &str {
    result.content[0].as_text().expect("a text result")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_calls_tools_and_only_its_prints_and_return_reach_the_model() {
    let result = run(r#"
        const ids = [1, 2, 3, 4];
        const rows = await Promise.all(ids.map(async (employee) => {
            const [spent, budget] = await Promise.all([tools.expenses({ employee }), tools.budget({ employee })]);
            return { employee, spent: Number(spent), limit: budget.limit };
        }));
        const over = rows.filter((row) => row.spent > row.limit);
        console.log("checked", rows.length, "employees");
        return over.map((row) => row.employee);
    "#)
    .await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(text(&result), "checked 4 employees\n[returned] [3,4]\n");
    let details = result.details.unwrap();
    assert_eq!(details["calls"], 8);
    assert_eq!(details["returned"], json!([3, 4]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_call_throws_in_the_script_which_may_catch_it() {
    let result = run(r#"
        try { await tools.expenses({ employee: 13 }); }
        catch (error) { console.log("caught:", error.message); }
        try { await tools.expenses({ employee: "x" }); }
        catch (error) { console.log("caught:", error.message); }
        await tools.expenses({ employee: 13 });
    "#)
    .await;
    assert!(result.is_error);
    let said = text(&result);
    assert!(
        said.starts_with("the script threw: Error: Tool expenses failed: no employee 13"),
        "{said}"
    );
    assert!(
        said.contains("caught: Tool expenses failed: no employee 13"),
        "{said}"
    );
    assert!(
        said.contains("caught: Tool expenses failed: employee: expected integer"),
        "{said}"
    );
    assert!(said.contains("(after 3 tool calls)"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn syntax_errors_and_unknown_tools_are_the_scripts_own_errors() {
    let broken = run("return (;").await;
    assert!(broken.is_error);
    assert!(
        text(&broken).starts_with("the script threw: SyntaxError"),
        "{}",
        text(&broken)
    );
    let unknown = run("await tools.wire_money({ to: 'me' });").await;
    assert!(unknown.is_error);
    assert!(
        text(&unknown).contains("not a function"),
        "{}",
        text(&unknown)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_infinite_loop_ends_at_the_time_limit() {
    let tools = registry(CodeLimits::default().with_time(Duration::from_millis(300)));
    for script in [
        "while (true) {}",
        "for (;;) { try { while (true) {} } catch (e) {} }",
    ] {
        let result = run_with(&tools, script, RunOptions::new()).await;
        assert!(result.is_error);
        assert_eq!(
            text(&result),
            "the script ran past its time limit of 0.3 s (after 0 tool calls)"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_bomb_ends_at_the_memory_limit() {
    let tools = registry(CodeLimits::default().with_memory(8 * 1024 * 1024));
    let result = run_with(
        &tools,
        "const keep = []; while (true) { keep.push(new Array(100000).fill(keep.length)); }",
        RunOptions::new(),
    )
    .await;
    assert!(result.is_error);
    assert!(
        text(&result).starts_with("the script used more than its memory limit of 8 MiB"),
        "{}",
        text(&result)
    );
    // The limit holds for the next run too: the engine is new each time.
    let fine = run_with(&tools, "return 1 + 1;", RunOptions::new()).await;
    assert_eq!(text(&fine), "[returned] 2\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_recursion_is_a_stack_overflow_not_a_crash() {
    let result = run("const down = (n) => down(n + 1) + 1; return down(0);").await;
    assert!(result.is_error);
    assert!(
        text(&result).starts_with("the script recursed too deep (stack overflow)"),
        "{}",
        text(&result)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_output_is_cut_and_said_so() {
    let tools = registry(CodeLimits::default().with_output(1000));
    let result = run_with(
        &tools,
        "for (let i = 0; i < 100000; i++) console.log('line', i); return 'x'.repeat(5000);",
        RunOptions::new(),
    )
    .await;
    assert!(!result.is_error);
    let said = text(&result);
    assert!(
        said.contains("[output cut at 1000 bytes, this run's limit]"),
        "{said}"
    );
    assert!(said.contains("… (5002 bytes in all)"), "{said}");
    assert!(said.len() < 3000, "{}", said.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_past_the_limit_stop_the_script() {
    let tools = registry(CodeLimits::default().with_calls(5));
    let result = run_with(
        &tools,
        "for (let i = 0; i < 1000; i++) { await tools.expenses({ employee: 1 }); }",
        RunOptions::new(),
    )
    .await;
    assert!(result.is_error);
    assert!(
        text(&result).starts_with(
            "the script was stopped: the script made more than 5 tool calls, this run's limit (after 5 tool calls)"
        ),
        "{}",
        text(&result)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_calls_within_the_limit_all_answer() {
    let tools = registry(CodeLimits::default().with_calls(3000));
    let result = run_with(
        &tools,
        "const all = await Promise.all(Array.from({ length: 2000 }, (_, i) => tools.expenses({ employee: i % 10 })));
         return all.length;",
        RunOptions::new(),
    )
    .await;
    assert_eq!(text(&result), "[returned] 2000\n", "{result:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_of_the_host_is_there() {
    let result = run(r#"
        const missing = ["require", "process", "std", "os", "fetch", "XMLHttpRequest", "import_meta", "Deno", "Bun",
          "performance", "setTimeout", "setInterval", "__start", "__print", "__names"]
            .filter((name) => typeof globalThis[name] !== "undefined");
        let clock;
        try { new Date(); clock = "there"; } catch (error) { clock = error.message; }
        let loaded;
        try { await import("os"); loaded = "loaded"; } catch (error) { loaded = "refused"; }
        return { missing, clock, loaded, random: [Math.random(), Math.random()] };
    "#)
    .await;
    assert!(!result.is_error, "{result:?}");
    let returned = &result.details.as_ref().unwrap()["returned"];
    assert_eq!(returned["missing"], json!([]));
    assert!(
        returned["clock"]
            .as_str()
            .unwrap()
            .starts_with("there is no clock")
    );
    assert_eq!(returned["loaded"], "refused");
    // The same sequence every run: a replay makes the same calls.
    let again = run("return [Math.random(), Math.random()];").await;
    assert_eq!(again.details.unwrap()["returned"], returned["random"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_calls_only_what_the_caller_may() {
    let tools = registry(CodeLimits::default());
    // The caller's options enable run_code and budget only.
    let options = RunOptions::new().with_enabled(["run_code", "budget"]);
    let result = run_with(
        &tools,
        "console.log(Object.keys(tools).join(',')); return await tools.expenses({ employee: 1 });",
        options,
    )
    .await;
    assert!(result.is_error);
    assert!(
        text(&result).contains("not a function"),
        "{}",
        text(&result)
    );
    assert!(
        text(&result).contains("It printed:\nbudget\n"),
        "{}",
        text(&result)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_inner_call_goes_through_the_executor_with_the_callers_hooks() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let heard = Arc::clone(&seen);
    let options = RunOptions::new().with_before_hook(move |call: BeforeCall| {
        heard
            .lock()
            .unwrap()
            .push((call.call_id.clone(), call.tool_name.clone()));
        let decision = if call.tool_name == "budget" {
            HookDecision::Block("budgets are private".to_owned())
        } else {
            HookDecision::Allow
        };
        async move { Ok(decision) }
    });
    let tools = registry(CodeLimits::default());
    let result = run_with(
        &tools,
        "await tools.expenses({ employee: 2 }); return await tools.budget({ employee: 2 });",
        options,
    )
    .await;
    assert!(result.is_error);
    assert!(
        text(&result).contains("budgets are private"),
        "{}",
        text(&result)
    );
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            ("run-1".to_owned(), "run_code".to_owned()),
            ("run-1.1".to_owned(), "expenses".to_owned()),
            ("run-1.2".to_owned(), "budget".to_owned()),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_the_run_ends_the_script_and_its_calls() {
    let started = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&started);
    let mut inner = ToolRegistry::new();
    inner
        .register(tool_core::DynamicTool::new(
            "slow",
            "Wait a long time",
            move |_args, ctx| {
                counted.fetch_add(1, Ordering::SeqCst);
                async move {
                    ctx.cancelled().await;
                    Ok(tool_core::ToolOutput::text("cancelled"))
                }
            },
        ))
        .unwrap();
    let tools = CodeMode::new().registry(inner).unwrap();
    let signal = tokio_util_signal();
    let options = RunOptions::new().with_signal(signal.clone());
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        signal.cancel();
    });
    let result = run_with(&tools, "await tools.slow({}); while (true) {}", options).await;
    canceller.await.unwrap();
    assert!(result.is_error);
    assert_eq!(started.load(Ordering::SeqCst), 1);
}

fn tokio_util_signal() -> tool_core::CancellationToken {
    tool_core::CancellationToken::new()
}

#[test]
fn the_description_carries_the_typed_api() {
    let tools = registry(CodeLimits::default());
    let run_code = tools.get("run_code").unwrap().definition();
    let description = &run_code.description;
    assert!(description.contains("expenses(args: {"), "{description}");
    assert!(
        description.contains("     * The employee's number"),
        "{description}"
    );
    assert!(
        description.contains("}): Promise<string>;"),
        "{description}"
    );
    assert!(
        description.contains("budget(args: {\n    /**\n     * (>= 0)\n     */\n    employee: number;\n  }): Promise<{"),
        "{description}"
    );
    assert!(
        description.contains("     * Euros a month"),
        "{description}"
    );
    assert_eq!(run_code.parameters["required"], json!(["code"]));
    let _: Value = run_code.parameters.clone();
}

/// Transfer money
#[tool(needs_approval)]
async fn transfer(euros: u32) -> String {
    format!("sent {euros}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_approval_is_asked_from_inside_the_script() {
    let mut inner = ToolRegistry::new();
    inner.register(TransferTool).unwrap();
    let tools = CodeMode::new().registry(inner).unwrap();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let heard = Arc::clone(&asked);
    let options = RunOptions::new().with_approvals(Approvals::ask(move |request| {
        heard.lock().unwrap().push(request.arguments.clone());
        let euros = request.arguments["euros"].as_u64().unwrap_or_default();
        async move {
            if euros <= 100 {
                Decision::Approve
            } else {
                Decision::Deny {
                    reason: Some("too much".to_owned()),
                }
            }
        }
    }));
    let result = run_with(
        &tools,
        r#"
        console.log(await tools.transfer({ euros: 50 }));
        try { await tools.transfer({ euros: 500 }); } catch (error) { console.log(error.message); }
        "#,
        options,
    )
    .await;
    assert!(!result.is_error, "{result:?}");
    let said = text(&result);
    assert!(said.starts_with("sent 50\n"), "{said}");
    assert!(said.contains("too much"), "{said}");
    assert_eq!(
        *asked.lock().unwrap(),
        [json!({"euros": 50}), json!({"euros": 500})]
    );

    // Without an asker, nothing needing approval runs from a script.
    let unasked = run_with(
        &tools,
        "return await tools.transfer({ euros: 1 });",
        RunOptions::new(),
    )
    .await;
    assert!(unasked.is_error);
    assert!(!text(&unasked).contains("sent"), "{}", text(&unasked));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inner_calls_progress_reaches_the_runs_sink_under_its_own_id() {
    let mut inner = ToolRegistry::new();
    inner
        .register(tool_core::DynamicTool::new(
            "crawl",
            "Crawl some pages",
            |_args, ctx| async move {
                ctx.report_progress(vec![tool_core::Content::text("page 1 of 2")]);
                Ok(tool_core::ToolOutput::text("done"))
            },
        ))
        .unwrap();
    let tools = CodeMode::new().registry(inner).unwrap();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&heard);
    let options =
        RunOptions::new().with_progress(move |event: tool_core::executor::ProgressEvent| {
            let text = event.content[0].as_text().unwrap_or_default().to_owned();
            sink.lock()
                .unwrap()
                .push((event.call_id, event.tool_name, text));
        });
    let result = run_with(&tools, "return await tools.crawl({});", options).await;
    assert_eq!(text(&result), "[returned] \"done\"\n");
    assert_eq!(
        *heard.lock().unwrap(),
        [(
            "run-1.1".to_owned(),
            "crawl".to_owned(),
            "page 1 of 2".to_owned()
        )]
    );
}

/// Wait, then answer: a call that is not ready at its first poll.
#[tool(read_only)]
async fn later(milliseconds: u64) -> String {
    tokio::time::sleep(Duration::from_millis(milliseconds)).await;
    // A task of the caller's runtime, spawned from inside the call.
    let spawned = tokio::spawn(async move { milliseconds * 2 });
    spawned.await.unwrap().to_string()
}

/// The script's thread polls its calls itself; a call that waits (a
/// timer, a task of the caller's runtime) is woken by that runtime, even a
/// current-thread one whose only thread is the caller's, and calls waiting
/// together answer in the order they finish.
#[tokio::test(flavor = "current_thread")]
async fn calls_that_wait_are_woken_by_the_callers_runtime_even_a_current_thread_one() {
    let mut inner = ToolRegistry::new();
    inner.register(LaterTool).unwrap();
    let tools = CodeMode::new().registry(inner).unwrap();
    let script = r#"
        const order = [];
        const slow = tools.later({ milliseconds: 120 }).then((value) => order.push(value));
        const quick = tools.later({ milliseconds: 10 }).then((value) => order.push(value));
        await Promise.all([slow, quick]);
        return order;
    "#;
    let result = run_with(&tools, script, RunOptions::new()).await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(text(&result), "[returned] [\"20\",\"240\"]\n");
}

/// A caller that stops waiting (drops the `run_code` call's future, as a
/// timeout does) stops the script and its calls: nothing goes on calling
/// tools for no one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_run_stops_its_script() {
    let ticks = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&ticks);
    let mut inner = ToolRegistry::new();
    inner
        .register(tool_core::DynamicTool::new(
            "tick",
            "Count, after a moment",
            move |_args, _ctx| {
                let counted = Arc::clone(&counted);
                async move {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    counted.fetch_add(1, Ordering::SeqCst);
                    Ok(tool_core::ToolOutput::text("tick"))
                }
            },
        ))
        .unwrap();
    let tools = CodeMode::new()
        .with_limits(CodeLimits::default().with_calls(100_000))
        .registry(inner)
        .unwrap();
    let call = ToolCall::new(
        "run-1",
        "run_code",
        json!({ "code": "while (true) { await tools.tick({}); }" }),
    );
    let given_up = tokio::time::timeout(
        Duration::from_millis(150),
        execute_tool_call(&call, &tools, RunOptions::new()),
    )
    .await;
    assert!(given_up.is_err(), "the script never ends by itself");
    assert!(ticks.load(Ordering::SeqCst) > 0, "the script ran");
    // A call in flight when the run was dropped may still finish.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let after_drop = ticks.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        ticks.load(Ordering::SeqCst),
        after_drop,
        "the script went on after its caller left"
    );
}

/// Arguments JSON cannot carry (a cycle, a `BigInt`) reject that call's
/// promise with JavaScript's own error, which the script may catch; no
/// call is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_that_are_not_json_reject_the_call_in_the_script() {
    let script = r#"
        const cyclic = { employee: 1 };
        cyclic.self = cyclic;
        const failed = [];
        for (const args of [cyclic, { employee: 10n }]) {
            try { await tools.expenses(args); } catch (error) { failed.push(error.name); }
        }
        const pending = tools.expenses(cyclic);
        failed.push(pending instanceof Promise);
        await pending.catch(() => {});
        return failed;
    "#;
    let result = run(script).await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        text(&result),
        "[returned] [\"TypeError\",\"TypeError\",true]\n"
    );
    assert_eq!(result.details.as_ref().unwrap()["calls"], 0);
}
