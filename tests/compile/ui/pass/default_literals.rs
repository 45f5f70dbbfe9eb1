//! `#[param(default = "...")]` written as the model would send the value:
//! a `String` field takes the text, a unit enum the variant the JSON shows
//! (its rename), a path and a number type their JSON string form; the
//! expression forms still work beside them.

use serde_json::json;
use std::path::PathBuf;
use tool_core::ToolParams;

/// A temperature unit.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// A window of days.
#[derive(ToolParams, Debug, PartialEq)]
pub struct Window {
    /// How many days
    days: u32,
    /// Starting in how many days
    #[param(default)]
    offset: u32,
}

/// A forecast request.
#[derive(ToolParams, Debug)]
pub struct Forecast {
    /// The window, as the JSON the model would send
    #[param(default = {"days": 3, "offset": -0})]
    window: Window,
    /// Thresholds, a JSON array
    #[param(default = [-1.5, 2])]
    thresholds: Vec<f64>,
    /// The city
    #[param(default = "Paris")]
    city: String,
    /// The unit
    #[param(default = "celsius")]
    unit: Unit,
    /// The unit, the Rust way
    #[param(default = Unit::Fahrenheit)]
    other: Unit,
    /// Where to write it
    #[param(default = "out/forecast.txt")]
    file: PathBuf,
}

pub fn main() {
    let parsed = Forecast::parse(&json!({})).unwrap();
    assert_eq!(parsed.window, Window { days: 3, offset: 0 });
    assert_eq!(parsed.thresholds, [-1.5, 2.0]);
    assert_eq!(parsed.city, "Paris");
    assert_eq!(parsed.unit, Unit::Celsius);
    assert_eq!(parsed.other, Unit::Fahrenheit);
    assert_eq!(parsed.file, PathBuf::from("out/forecast.txt"));
    let schema = Forecast::json_schema();
    assert_eq!(schema["properties"]["unit"]["default"], "celsius");
    assert_eq!(schema["properties"]["other"]["default"], "fahrenheit");
    assert_eq!(schema["properties"]["city"]["default"], "Paris");
    assert_eq!(
        schema["properties"]["window"]["default"],
        json!({"days": 3, "offset": 0})
    );
}
