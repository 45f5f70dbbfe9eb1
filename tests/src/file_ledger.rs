//! A ledger in a JSON file, for the tests that kill a process between a
//! resume's claim and its finish and resume again from another: the
//! record must outlive the process, as it would in a store. A test double
//! (no locking: the tests that use it never claim from two processes at
//! once); the binary's shared ledger is tool-redis's.

use serde_json::{Map, Value, json};
use std::path::PathBuf;
use tool_core::approval::{Claim, Claimed, LedgerFuture, SuspensionLedger};

/// The records, one JSON object per state id.
#[derive(Clone, Debug)]
pub struct FileLedger {
    path: PathBuf,
}

impl FileLedger {
    /// The ledger kept in `path` (created on the first claim).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        FileLedger { path: path.into() }
    }

    fn read(&self) -> Map<String, Value> {
        std::fs::read(&self.path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    fn write(&self, records: &Map<String, Value>) -> Result<(), String> {
        std::fs::write(&self.path, Value::Object(records.clone()).to_string())
            .map_err(|error| error.to_string())
    }

    fn claim_now(&self, claim: &Claim<'_>) -> Result<Claimed, String> {
        let mut records = self.read();
        let now = now_millis();
        let Some(record) = records.get_mut(claim.id) else {
            let fresh = json!({"holder": claim.holder, "lease": claim.lease_until_ms, "running": claim.running, "finished": false});
            records.insert(claim.id.to_owned(), fresh);
            self.write(&records)?;
            return Ok(Claimed::Fresh);
        };
        if record["finished"] == true {
            return Ok(Claimed::Finished);
        }
        let lease = record["lease"].as_u64().unwrap_or(0);
        if lease > now {
            return Ok(Claimed::Busy {
                lease_until_ms: lease,
            });
        }
        let before: Vec<String> =
            serde_json::from_value(record["running"].clone()).unwrap_or_default();
        let mut running = before.clone();
        for id in claim.running {
            if !running.contains(id) {
                running.push(id.clone());
            }
        }
        *record = json!({"holder": claim.holder, "lease": claim.lease_until_ms, "running": running, "finished": false});
        self.write(&records)?;
        Ok(Claimed::TakenOver {
            interrupted: before,
        })
    }

    fn held(
        &self,
        id: &str,
        holder: &str,
        change: impl FnOnce(&mut Value),
    ) -> Result<bool, String> {
        let mut records = self.read();
        let Some(record) = records.get_mut(id) else {
            return Ok(false);
        };
        if record["holder"] != holder || record["finished"] == true {
            return Ok(false);
        }
        change(record);
        self.write(&records)?;
        Ok(true)
    }
}

impl SuspensionLedger for FileLedger {
    fn claim<'a>(&'a self, claim: &'a Claim<'a>) -> LedgerFuture<'a, Claimed> {
        Box::pin(std::future::ready(self.claim_now(claim)))
    }

    fn renew<'a>(
        &'a self,
        id: &'a str,
        holder: &'a str,
        lease_until_ms: u64,
    ) -> LedgerFuture<'a, bool> {
        let renewed = self.held(id, holder, |record| record["lease"] = json!(lease_until_ms));
        Box::pin(std::future::ready(renewed))
    }

    fn finish<'a>(&'a self, id: &'a str, holder: &'a str) -> LedgerFuture<'a, ()> {
        let finished = self.held(id, holder, |record| record["finished"] = json!(true));
        Box::pin(std::future::ready(finished.map(|_| ())))
    }
}

fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| {
            u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
        })
}
