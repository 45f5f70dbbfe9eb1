//! The approval ledger on Redis: each state's record a hash
//! (`holder`, `lease`, `running`, `finished`) under `prefix:ledger:ID`,
//! changed only by a Lua script per step, which Redis runs atomically
//! (<https://redis.io/docs/latest/develop/programmability/eval-intro/>:
//! "Redis guarantees the script's atomic execution"), so two processes
//! claiming one state at once cannot both get it. Each record expires when
//! the claim says it may be forgotten (`PEXPIREAT`).

use crate::RedisStore;
use redis::{Script, Value};
use std::sync::LazyLock;
use std::time::{SystemTime, UNIX_EPOCH};
use tool_core::approval::{Claim, Claimed, LedgerFuture, SuspensionLedger};

static CLAIM: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("scripts/claim.lua")));
static RENEW: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("scripts/renew.lua")));
static FINISH: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("scripts/finish.lua")));

/// The longest a record is kept: Redis refuses expiry times beyond its
/// range, and a record kept for "ever" must still expire.
const LONGEST_KEPT_MS: u64 = 10 * 365 * 24 * 60 * 60 * 1000;

/// tool-core's [`SuspensionLedger`] in a [`RedisStore`]: give it to every
/// process that resumes approvals with the same key
/// ([`Approvals::with_ledger`](tool_core::approval::Approvals::with_ledger),
/// `McpServer::with_approval_ledger`). A Redis error fails the step (the
/// resume is refused, nothing runs).
#[derive(Clone, Debug)]
pub struct RedisLedger {
    store: RedisStore,
}

impl RedisLedger {
    pub(crate) fn new(store: RedisStore) -> Self {
        RedisLedger { store }
    }

    fn record(&self, id: &str) -> String {
        self.store.key("ledger", id)
    }
}

impl SuspensionLedger for RedisLedger {
    fn claim<'a>(&'a self, claim: &'a Claim<'a>) -> LedgerFuture<'a, Claimed> {
        Box::pin(async move {
            // Strings always serialize.
            let running = serde_json::to_string(claim.running).unwrap_or_default();
            let mut connection = self.store.connection();
            let now = now_millis();
            let answer: Vec<String> = CLAIM
                .key(self.record(claim.id))
                .arg(claim.holder)
                .arg(claim.lease_until_ms)
                .arg(running)
                .arg(claim.keep_until_ms.min(now.saturating_add(LONGEST_KEPT_MS)))
                .arg(now)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| format!("Redis: {error}"))?;
            read_claimed(&answer)
        })
    }

    fn renew<'a>(
        &'a self,
        id: &'a str,
        holder: &'a str,
        lease_until_ms: u64,
    ) -> LedgerFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let held: i64 = RENEW
                .key(self.record(id))
                .arg(holder)
                .arg(lease_until_ms)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| format!("Redis: {error}"))?;
            Ok(held == 1)
        })
    }

    fn finish<'a>(&'a self, id: &'a str, holder: &'a str) -> LedgerFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let _: Value = FINISH
                .key(self.record(id))
                .arg(holder)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| format!("Redis: {error}"))?;
            Ok(())
        })
    }
}

/// The claim script's answer as a [`Claimed`].
fn read_claimed(answer: &[String]) -> Result<Claimed, String> {
    match answer {
        [kind] if kind == "fresh" => Ok(Claimed::Fresh),
        [kind] if kind == "finished" => Ok(Claimed::Finished),
        [kind, lease] if kind == "busy" => lease
            .parse()
            .map(|lease_until_ms| Claimed::Busy { lease_until_ms })
            .map_err(|_| format!("the ledger's lease {lease:?} is not a number")),
        [kind, running] if kind == "taken" => Ok(Claimed::TakenOver {
            interrupted: read_array(running)?,
        }),
        other => Err(format!("the ledger's claim script answered {other:?}")),
    }
}

/// A JSON array of strings, as the script stored it (Lua's cjson writes
/// an empty table as `{}`; the script never stores one, but reads either).
fn read_array(text: &str) -> Result<Vec<String>, String> {
    if text == "{}" {
        return Ok(Vec::new());
    }
    serde_json::from_str(text)
        .map_err(|error| format!("the ledger's running calls {text:?}: {error}"))
}

fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ids_round_trip_through_the_scripts_json() {
        let ids = vec![
            "call-1".to_owned(),
            "with \"quotes\" and \\ and\nnewline".to_owned(),
            "ünï".to_owned(),
        ];
        assert_eq!(
            read_array(&serde_json::to_string(&ids).unwrap()).unwrap(),
            ids
        );
        assert_eq!(read_array("{}").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn every_answer_of_the_claim_script_reads() {
        let read = |parts: &[&str]| {
            read_claimed(
                &parts
                    .iter()
                    .map(|part| (*part).to_owned())
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(read(&["fresh"]), Ok(Claimed::Fresh));
        assert_eq!(read(&["finished"]), Ok(Claimed::Finished));
        assert_eq!(
            read(&["busy", "42"]),
            Ok(Claimed::Busy { lease_until_ms: 42 })
        );
        assert_eq!(
            read(&["taken", r#"["c1"]"#]),
            Ok(Claimed::TakenOver {
                interrupted: vec!["c1".to_owned()]
            })
        );
        assert!(read(&["what"]).is_err());
        assert!(read(&["busy", "soon"]).is_err());
    }
}
