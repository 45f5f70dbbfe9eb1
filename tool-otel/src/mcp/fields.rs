//! A `tracing` visitor keeping the values of a fixed list of fields as
//! OpenTelemetry attributes.

use opentelemetry::KeyValue;
use std::fmt;
use tracing::field::{Field, Visit};

/// The values recorded so far of the fields named in `keys`; a field
/// recorded again replaces its value.
#[derive(Debug)]
pub(super) struct Captured {
    keys: &'static [&'static str],
    pub(super) values: Vec<KeyValue>,
}

impl Captured {
    pub(super) fn of(keys: &'static [&'static str]) -> Self {
        Captured {
            keys,
            values: Vec::new(),
        }
    }

    /// The value of `key`, as text, if recorded.
    pub(super) fn get(&self, key: &str) -> Option<String> {
        self.values
            .iter()
            .find(|pair| pair.key.as_str() == key)
            .map(|pair| pair.value.as_str().into_owned())
    }

    fn set(&mut self, field: &Field, value: impl FnOnce() -> opentelemetry::Value) {
        let Some(key) = self.keys.iter().find(|key| **key == field.name()) else {
            return;
        };
        let value = value();
        match self
            .values
            .iter_mut()
            .find(|pair| pair.key.as_str() == *key)
        {
            Some(pair) => pair.value = value,
            None => self.values.push(KeyValue::new(*key, value)),
        }
    }
}

impl Visit for Captured {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.set(field, || value.to_owned().into());
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.set(field, || value.into());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.set(field, || i64::try_from(value).unwrap_or(i64::MAX).into());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.set(field, || value.into());
    }

    // `%value` fields arrive here, their `Debug` being the value's `Display`.
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.set(field, || format!("{value:?}").into());
    }
}
