//! Ten thousand realistic tools, the same on every run: 40 services, 10
//! objects each, 25 verbs (`github_search_issues`, `jira_create_ticket`,
//! `slack_post_message`, `calendar_list_events`), each with a one-line
//! description and 1 to 5 described parameters, as `DynamicTool`s with JSON
//! schemas. And the queries an agent would send `tool_search` over them.
//!
//! Shared by the `many_tools` criterion bench, the `search_latency` main
//! (latency, memory, the export for `scripts/bm25_reference.py`) and the
//! integration test `tests/tests/registry/many_tools.rs`, each including
//! this file with `#[path]`: nothing here depends on the rest of
//! `benches/support`.

#![allow(dead_code)]

use serde_json::{Map, Value, json};
use tool_core::toolset::Toolset;
use tool_core::{Content, DynamicTool, ToolDefinition, ToolOutput};

/// How many tools [`specs`] makes: every service × object × verb.
pub(crate) const TOOL_COUNT: usize = SERVICES.len() * OBJECTS_PER_SERVICE * VERBS.len();

const OBJECTS_PER_SERVICE: usize = 10;

/// The seed every run starts from, so every run sees the same tools.
const SEED: u64 = 0x5eed_7001_5ea2_c4e5;

/// A service: its name prefix, how its documentation names it, what holds
/// its objects, and ten objects (singular, `_` between words).
struct Service {
    id: &'static str,
    display: &'static str,
    container: &'static str,
    objects: [&'static str; OBJECTS_PER_SERVICE],
}

const fn service(
    id: &'static str,
    display: &'static str,
    container: &'static str,
    objects: [&'static str; OBJECTS_PER_SERVICE],
) -> Service {
    Service {
        id,
        display,
        container,
        objects,
    }
}

#[rustfmt::skip]
const SERVICES: [Service; 40] = [
    service("github", "GitHub", "repository", ["issue", "pull_request", "branch", "commit", "release", "comment", "label", "workflow_run", "gist", "milestone"]),
    service("gitlab", "GitLab", "project", ["merge_request", "pipeline", "issue", "branch", "tag", "job", "snippet", "runner", "milestone", "comment"]),
    service("jira", "Jira", "project", ["ticket", "sprint", "board", "epic", "comment", "attachment", "worklog", "version", "component", "filter"]),
    service("slack", "Slack", "workspace", ["message", "channel", "reaction", "file", "thread", "reminder", "user_group", "bookmark", "emoji", "status"]),
    service("calendar", "Google Calendar", "calendar", ["event", "attendee", "reminder", "invitation", "room", "agenda", "time_slot", "holiday", "booking", "note"]),
    service("gmail", "Gmail", "mailbox", ["email", "draft", "label", "thread", "attachment", "filter", "contact", "signature", "alias", "vacation_reply"]),
    service("drive", "Google Drive", "drive", ["file", "folder", "permission", "comment", "revision", "shortcut", "shared_drive", "label", "upload", "trash_item"]),
    service("notion", "Notion", "workspace", ["page", "database", "block", "comment", "property", "template", "view", "user", "link", "backlink"]),
    service("confluence", "Confluence", "space", ["page", "blog_post", "comment", "attachment", "label", "template", "space_permission", "macro", "draft", "version"]),
    service("linear", "Linear", "team", ["issue", "project", "cycle", "label", "comment", "roadmap", "milestone", "attachment", "view", "initiative"]),
    service("asana", "Asana", "workspace", ["task", "project", "section", "subtask", "tag", "comment", "portfolio", "goal", "attachment", "team"]),
    service("trello", "Trello", "board", ["card", "list", "checklist", "label", "member", "comment", "attachment", "power_up", "sticker", "board_template"]),
    service("salesforce", "Salesforce", "org", ["lead", "opportunity", "account", "contact", "case", "campaign", "quote", "contract", "report", "dashboard"]),
    service("hubspot", "HubSpot", "portal", ["contact", "company", "deal", "ticket", "email_campaign", "form", "list", "workflow", "note", "meeting"]),
    service("zendesk", "Zendesk", "help_center", ["ticket", "user", "organization", "macro", "article", "view", "trigger", "satisfaction_rating", "group", "tag"]),
    service("stripe", "Stripe", "account", ["payment", "customer", "invoice", "subscription", "refund", "payout", "product", "price", "coupon", "dispute"]),
    service("shopify", "Shopify", "store", ["order", "product", "customer", "collection", "discount", "inventory_item", "fulfillment", "refund", "draft_order", "gift_card"]),
    service("aws", "AWS", "account", ["instance", "bucket", "lambda_function", "security_group", "snapshot", "volume", "load_balancer", "queue", "role", "stack"]),
    service("gcp", "Google Cloud", "project", ["vm_instance", "storage_bucket", "cloud_function", "service_account", "firewall_rule", "disk", "cluster", "topic", "secret", "budget"]),
    service("azure", "Azure", "subscription", ["virtual_machine", "resource_group", "storage_account", "web_app", "key_vault", "network", "container_registry", "function_app", "database", "alert"]),
    service("kubernetes", "Kubernetes", "cluster", ["pod", "deployment", "service", "namespace", "config_map", "secret", "ingress", "node", "job", "cron_job"]),
    service("docker", "Docker", "host", ["container", "image", "volume", "network", "stack", "registry", "build", "log", "tag", "plugin"]),
    service("datadog", "Datadog", "organization", ["monitor", "dashboard", "metric", "log", "incident", "event", "host", "synthetic_test", "slo", "notebook"]),
    service("pagerduty", "PagerDuty", "account", ["incident", "schedule", "escalation_policy", "service", "alert", "on_call_shift", "team", "user", "maintenance_window", "note"]),
    service("sentry", "Sentry", "organization", ["issue", "event", "project", "release", "alert_rule", "team", "dsn_key", "replay", "comment", "environment"]),
    service("figma", "Figma", "team", ["file", "comment", "component", "frame", "style", "project", "version", "prototype", "library", "plugin"]),
    service("zoom", "Zoom", "account", ["meeting", "webinar", "recording", "participant", "registrant", "chat_message", "room", "report", "poll", "transcript"]),
    service("teams", "Microsoft Teams", "tenant", ["message", "channel", "team", "meeting", "chat", "tab", "member", "file", "call", "reply"]),
    service("dropbox", "Dropbox", "account", ["file", "folder", "shared_link", "paper_doc", "file_request", "revision", "team_member", "tag", "upload_session", "comment"]),
    service("airtable", "Airtable", "base", ["record", "table", "field", "view", "base", "comment", "attachment", "automation", "form", "webhook"]),
    service("spotify", "Spotify", "library", ["playlist", "track", "album", "artist", "episode", "show", "queue", "device", "recommendation", "saved_track"]),
    service("twitter", "X (Twitter)", "account", ["post", "reply", "like", "follower", "list", "bookmark", "direct_message", "space", "mention", "media_file"]),
    service("youtube", "YouTube", "channel", ["video", "playlist", "comment", "subscription", "caption", "live_stream", "thumbnail", "channel_section", "member", "analytics_report"]),
    service("postgres", "PostgreSQL", "database", ["table", "row", "index", "view", "schema", "role", "query", "extension", "trigger", "backup"]),
    service("redis", "Redis", "instance", ["key", "hash", "list", "set", "stream", "channel", "snapshot", "cluster_node", "sorted_set", "pubsub_message"]),
    service("weather", "Weather", "location", ["forecast", "alert", "observation", "radar_image", "station", "air_quality_report", "uv_index", "sunrise_time", "historical_record", "warning"]),
    service("maps", "Google Maps", "region", ["place", "route", "direction", "geocode", "review", "photo", "distance_matrix", "elevation", "time_zone", "saved_place"]),
    service("todoist", "Todoist", "project", ["task", "section", "label", "comment", "filter", "reminder", "collaborator", "karma_goal", "template", "activity_log"]),
    service("quickbooks", "QuickBooks", "company", ["invoice", "bill", "expense", "vendor", "customer", "payment", "estimate", "purchase_order", "journal_entry", "tax_rate"]),
    service("workday", "Workday", "tenant", ["employee", "time_off_request", "position", "job_requisition", "candidate", "payslip", "benefit_plan", "expense_report", "timesheet", "review"]),
];

/// What a verb does to its object, which decides the tool's name (a verb
/// over many objects names them in the plural) and its first parameter.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// One existing object, by its id (`get`, `delete`, ...).
    Item,
    /// Objects of a container (`list`, `count`, `export`, `sync`).
    Many,
    /// A new object (`create`, `send`, `post`, `schedule`).
    New,
    /// Objects matching words (`search`).
    Query,
    /// Objects brought in from elsewhere (`import`).
    Import,
}

/// A verb, its kind, and two description templates: `{S}` the service,
/// `{o}` the object, `{os}` the objects, `{c}` the container, `{cs}` the
/// containers.
struct Verb {
    name: &'static str,
    kind: Kind,
    templates: [&'static str; 2],
}

const fn verb(name: &'static str, kind: Kind, templates: [&'static str; 2]) -> Verb {
    Verb {
        name,
        kind,
        templates,
    }
}

#[rustfmt::skip]
const VERBS: [Verb; 25] = [
    verb("list", Kind::Many, ["List the {os} of a {S} {c}, newest first.", "List {os} in {S}, one page at a time."]),
    verb("get", Kind::Item, ["Get one {S} {o} by its id, with all of its fields.", "Fetch the details of a {o} in {S}."]),
    verb("create", Kind::New, ["Create a new {o} in a {S} {c}.", "Add a {o} to {S} and return its id."]),
    verb("update", Kind::Item, ["Update the fields of an existing {S} {o}.", "Change a {o} in {S}: only the fields given are modified."]),
    verb("delete", Kind::Item, ["Delete a {o} from {S} permanently.", "Remove a {S} {o}; this cannot be undone."]),
    verb("search", Kind::Query, ["Search {S} {os} by keyword, with optional filters.", "Find {os} in {S} whose text matches a query."]),
    verb("archive", Kind::Item, ["Archive a {S} {o} so it no longer shows in lists.", "Move a {o} into the {S} archive."]),
    verb("restore", Kind::Item, ["Restore an archived or deleted {S} {o}.", "Bring back a {o} that was archived in {S}."]),
    verb("export", Kind::Many, ["Export {S} {os} to a CSV or JSON file.", "Download every {o} of a {S} {c} as a file."]),
    verb("import", Kind::Import, ["Import {os} into {S} from a file or URL.", "Bulk-create {S} {os} from a CSV upload."]),
    verb("share", Kind::Item, ["Share a {S} {o} with other people.", "Give users access to a {o} in {S}."]),
    verb("assign", Kind::Item, ["Assign a {S} {o} to a user.", "Set who owns a {o} in {S}."]),
    verb("close", Kind::Item, ["Close a {S} {o}.", "Mark a {o} in {S} as done and close it."]),
    verb("reopen", Kind::Item, ["Reopen a closed {S} {o}.", "Open a {o} in {S} again after it was closed."]),
    verb("move", Kind::Item, ["Move a {S} {o} to another {c}.", "Transfer a {o} between {S} {cs}."]),
    verb("copy", Kind::Item, ["Duplicate a {S} {o}, optionally into another {c}.", "Make a copy of a {o} in {S}."]),
    verb("send", Kind::New, ["Send a {S} {o} to its recipients.", "Deliver a {o} through {S} to a person or a group."]),
    verb("post", Kind::New, ["Post a {o} to a {S} {c}.", "Publish a new {o} on {S}."]),
    verb("schedule", Kind::New, ["Schedule a {S} {o} for a later time.", "Plan a {o} in {S} to happen at a given date and time."]),
    verb("sync", Kind::Many, ["Synchronize {S} {os} with an external system.", "Refresh the local copy of {S} {os}."]),
    verb("watch", Kind::Item, ["Watch a {S} {o} to be notified of changes.", "Subscribe to updates on a {o} in {S}."]),
    verb("pin", Kind::Item, ["Pin a {S} {o} to the top of its {c}.", "Keep a {o} pinned in {S} so it stays visible."]),
    verb("approve", Kind::Item, ["Approve a pending {S} {o}.", "Give approval to a {o} waiting for review in {S}."]),
    verb("reject", Kind::Item, ["Reject a pending {S} {o} with a reason.", "Decline a {o} in {S} that awaits approval."]),
    verb("count", Kind::Many, ["Count the {os} in a {S} {c} that match filters.", "Return how many {os} {S} holds."]),
];

/// A qualifier some descriptions end with, as real descriptions vary.
const TAILS: [&str; 6] = [
    "",
    "",
    " Requires an API token with write access.",
    " Results are paginated.",
    " Works for the authenticated user only.",
    " Rate limited to 100 calls per minute.",
];

/// Optional parameters: name, JSON type, description template (as in
/// [`VERBS`]).
#[rustfmt::skip]
const OPTIONAL: [(&str, &str, &str); 14] = [
    ("limit", "integer", "Most {os} to return, 1 to 100."),
    ("cursor", "string", "Page token from the previous answer."),
    ("since", "string", "Only {os} changed after this time (ISO 8601)."),
    ("sort", "string", "Field to sort the {os} by."),
    ("include_archived", "boolean", "Whether archived {os} are included."),
    ("notify", "boolean", "Whether watchers of the {o} are notified."),
    ("dry_run", "boolean", "Check the request without changing anything."),
    ("time_zone", "string", "IANA time zone for dates, such as Europe/Paris."),
    ("labels", "array", "Labels to attach to the {o}."),
    ("priority", "string", "Priority of the {o}: low, normal or high."),
    ("due_date", "string", "When the {o} is due (YYYY-MM-DD)."),
    ("visibility", "string", "Who can see the {o}: private, team or public."),
    ("owner", "string", "User name of the {o}'s owner."),
    ("fields", "array", "Fields of each {o} to return; all when absent."),
];

/// One generated tool: what its definition says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ToolSpec {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) parameters: Value,
}

impl ToolSpec {
    /// The definition a registry builds from the tool, built directly.
    pub(crate) fn definition(&self) -> ToolDefinition {
        ToolDefinition::new(
            self.name.clone(),
            self.description.clone(),
            self.parameters.clone(),
        )
    }

    /// The tool: it answers with its name and the arguments it was given.
    pub(crate) fn tool(&self) -> DynamicTool {
        let name = self.name.clone();
        DynamicTool::new(
            self.name.clone(),
            self.description.clone(),
            move |arguments, _ctx| {
                let text = format!("{name} done with {}", Value::Object(arguments));
                async move { Ok(ToolOutput::new(vec![Content::text(text)])) }
            },
        )
        .with_parameters(self.parameters.clone())
    }

    /// The text `tool_search` indexes for this tool.
    pub(crate) fn searchable_text(&self) -> String {
        tool_core::toolset::searchable_text(&self.definition())
    }
}

/// xorshift64*: a few lines, deterministic, good enough to vary text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `bound` (`bound` > 0).
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// `issue` -> `issues`, `repository` -> `repositories`, `box` -> `boxes`.
fn plural(word: &str) -> String {
    let bytes = word.as_bytes();
    let consonant_y =
        word.ends_with('y') && bytes.len() > 1 && !b"aeiou".contains(&bytes[bytes.len() - 2]);
    if consonant_y {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "ch", "sh"].iter().any(|end| word.ends_with(end)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// The template with its placeholders filled in.
fn fill(template: &str, service: &Service, object: &str) -> String {
    let words = |ident: &str| ident.replace('_', " ");
    template
        .replace("{S}", service.display)
        .replace("{os}", &words(&plural(object)))
        .replace("{o}", &words(object))
        .replace("{cs}", &words(&plural(service.container)))
        .replace("{c}", &words(service.container))
}

fn property(kind: &str, description: String) -> Value {
    match kind {
        "array" => {
            json!({"type": "array", "items": {"type": "string"}, "description": description})
        }
        _ => json!({"type": kind, "description": description}),
    }
}

/// The first parameter, which a call must give, from the verb's kind.
fn first_parameter(verb: &Verb, service: &Service, object: &str) -> (String, Value) {
    let text = |template: &str| fill(template, service, object);
    match verb.kind {
        Kind::Item => (
            format!("{object}_id"),
            property(
                "string",
                text(&format!("Id of the {{o}} to {}.", verb.name)),
            ),
        ),
        Kind::Many => (
            format!("{}_id", service.container),
            property("string", text("The {S} {c} whose {os} are meant.")),
        ),
        Kind::New => (
            "title".to_owned(),
            property("string", text("Title or text of the new {o}.")),
        ),
        Kind::Query => (
            "query".to_owned(),
            property("string", text("Words to look for in {os}.")),
        ),
        Kind::Import => (
            "source_url".to_owned(),
            property("string", text("Where to import the {os} from.")),
        ),
    }
}

/// Every tool, in service, object, verb order: the same ten thousand on
/// every call.
pub(crate) fn specs() -> Vec<ToolSpec> {
    let mut rng = Rng(SEED);
    let mut specs = Vec::with_capacity(TOOL_COUNT);
    for service in &SERVICES {
        for object in service.objects {
            for verb in &VERBS {
                specs.push(spec(&mut rng, service, object, verb));
            }
        }
    }
    specs
}

fn spec(rng: &mut Rng, service: &Service, object: &str, verb: &Verb) -> ToolSpec {
    let named = match verb.kind {
        Kind::Many | Kind::Query | Kind::Import => plural(object),
        Kind::Item | Kind::New => object.to_owned(),
    };
    let name = format!("{}_{}_{named}", service.id, verb.name);
    let template = verb.templates[rng.below(verb.templates.len())];
    let tail = TAILS[rng.below(TAILS.len())];
    let description = format!("{}{tail}", fill(template, service, object));

    let (first, first_schema) = first_parameter(verb, service, object);
    let mut properties = Map::new();
    properties.insert(first.clone(), first_schema);
    let wanted = 1 + rng.below(5);
    while properties.len() < wanted {
        let (key, kind, template) = OPTIONAL[rng.below(OPTIONAL.len())];
        if !properties.contains_key(key) {
            properties.insert(
                key.to_owned(),
                property(kind, fill(template, service, object)),
            );
        }
    }
    let parameters = json!({
        "type": "object",
        "properties": properties,
        "required": [first],
    });
    ToolSpec {
        name,
        description,
        parameters,
    }
}

/// Every tool as a `DynamicTool` (its schema compiled once, here).
pub(crate) fn tools(specs: &[ToolSpec]) -> Vec<DynamicTool> {
    specs.iter().map(ToolSpec::tool).collect()
}

/// The tools as one deferred set: what an agent with ten thousand tools
/// registers, showing only `tool_search` up front.
pub(crate) fn deferred_toolset(tools: Vec<DynamicTool>) -> Toolset {
    tools
        .into_iter()
        .fold(Toolset::new("many tools"), Toolset::with)
        .deferred()
}

/// An echo tool registered beside the ten thousand: the cheapest call the
/// same executor and registry answer, to set a search call against.
pub(crate) fn echo() -> DynamicTool {
    DynamicTool::new("echo", "Echo one value", |arguments, _ctx| async move {
        let value = arguments
            .get("value")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        Ok(ToolOutput::new(vec![Content::text(value)]))
    })
}

/// Queries written as an agent would ask, some in the tools' words, some
/// partly not (`tweet`, `on call`, `next week`).
#[rustfmt::skip]
pub(crate) const QUERIES: [&str; 50] = [
    "create a jira ticket", "post to slack channel", "list calendar events next week",
    "search github issues about login bug", "send an email with gmail", "upload a file to google drive",
    "find open pull requests", "refund a stripe payment", "scale kubernetes deployment",
    "restart a docker container", "get weather forecast for paris", "directions to the airport",
    "close a zendesk ticket", "create invoice in quickbooks", "list aws buckets",
    "delete an aws instance", "approve time off request", "schedule a zoom meeting",
    "share a figma file", "export salesforce leads to csv", "add a card to trello board",
    "assign a linear issue", "archive notion page", "merge request pipeline status",
    "pagerduty incident on call", "datadog monitor alert", "sentry error events for a release",
    "play a spotify playlist", "reply to a tweet", "upload youtube video caption",
    "query postgres table rows", "redis key snapshot", "count open tickets",
    "reopen a closed issue", "watch a confluence page", "create a hubspot deal",
    "shopify order fulfillment", "import contacts from csv", "pin a message in teams channel",
    "copy a dropbox folder", "airtable record in a base", "todoist task due tomorrow",
    "workday expense report", "gitlab runner jobs", "gcp service account secret",
    "azure key vault", "sync asana tasks", "update the priority of a ticket",
    "who is on call this week", "search documents by keyword",
];

/// `count` queries: [`QUERIES`] first, then ones made from the tools'
/// services and objects in other words ("show me", "how many", "for the
/// marketing team"), deterministic.
pub(crate) fn queries(count: usize) -> Vec<String> {
    const OPENINGS: [&str; 12] = [
        "create a",
        "show me the",
        "find",
        "delete the",
        "list all",
        "how many",
        "update my",
        "get the latest",
        "search for",
        "send a",
        "close the",
        "export",
    ];
    const ENDINGS: [&str; 8] = [
        "",
        "",
        "",
        " from last week",
        " for the marketing team",
        " assigned to me",
        " in the backlog",
        " by id",
    ];
    let mut rng = Rng(SEED ^ 0x0051_ee7e);
    let mut queries: Vec<String> = QUERIES.iter().map(|query| (*query).to_owned()).collect();
    while queries.len() < count {
        let service = &SERVICES[rng.below(SERVICES.len())];
        let object = service.objects[rng.below(OBJECTS_PER_SERVICE)].replace('_', " ");
        let opening = OPENINGS[rng.below(OPENINGS.len())];
        let ending = ENDINGS[rng.below(ENDINGS.len())];
        let query = match rng.below(3) {
            0 => format!("{opening} {object}{ending}"),
            _ => format!(
                "{opening} {} {object}{ending}",
                service.display.to_lowercase()
            ),
        };
        queries.push(query);
    }
    queries.truncate(count);
    queries
}
