//! A generic flattened field whose type, once chosen, repeats an outer
//! field's JSON name: found when the generic code is instantiated.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Paging {
    page: u32,
    query: String,
}

#[derive(ToolParams)]
struct Request<T> {
    query: String,
    #[param(flatten)]
    extra: T,
}

fn main() {
    let _ = Request::<Paging>::json_schema();
}
