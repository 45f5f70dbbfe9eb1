//! The limits per caller on Redis: a rate's theoretical arrival time under
//! `prefix:quota:rate:CALLER`, and the places held (sessions, requests in
//! flight) in a sorted set under `prefix:quota:sessions:CALLER` and
//! `prefix:quota:calls:CALLER`, each step one Lua script (atomic), timed
//! by the server's clock (`TIME`) so that processes whose clocks differ
//! agree. Everything expires: a rate's key when its caller has been quiet
//! for the burst's time, a set with its last lease.

use crate::RedisStore;
use crate::sessions::millis;
use redis::Script;
use std::sync::LazyLock;
use std::time::Duration;
use tool_mcp::{QuotaStore, Rate, StateFuture};

static GCRA: LazyLock<Script> = LazyLock::new(|| Script::new(include_str!("scripts/gcra.lua")));
static ACQUIRE: LazyLock<Script> =
    LazyLock::new(|| Script::new(include_str!("scripts/acquire.lua")));

/// tool-mcp's [`QuotaStore`] in a [`RedisStore`]: the limits per caller
/// hold across every process sharing it.
#[derive(Clone, Debug)]
pub struct RedisQuotas {
    store: RedisStore,
}

impl RedisQuotas {
    pub(crate) fn new(store: RedisStore) -> Self {
        RedisQuotas { store }
    }

    fn key(&self, key: &str) -> String {
        self.store.key("quota", key)
    }
}

fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros())
        .unwrap_or(u64::MAX)
        .max(1)
}

impl QuotaStore for RedisQuotas {
    fn admit<'a>(&'a self, key: &'a str, rate: Rate) -> StateFuture<'a, Option<Duration>> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let wait: u64 = GCRA
                .key(self.key(key))
                .arg(micros(rate.interval()))
                .arg(micros(rate.tolerance()))
                .invoke_async(&mut connection)
                .await?;
            Ok((wait > 0).then(|| Duration::from_micros(wait)))
        })
    }

    fn acquire<'a>(
        &'a self,
        key: &'a str,
        holder: &'a str,
        max: u32,
        lease: Duration,
    ) -> StateFuture<'a, bool> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let held: i64 = ACQUIRE
                .key(self.key(key))
                .arg(holder)
                .arg(max)
                .arg(millis(lease))
                .invoke_async(&mut connection)
                .await?;
            Ok(held == 1)
        })
    }

    fn release<'a>(&'a self, key: &'a str, holder: &'a str) -> StateFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.store.connection();
            let _removed: i64 = redis::cmd("ZREM")
                .arg(self.key(key))
                .arg(holder)
                .query_async(&mut connection)
                .await?;
            Ok(())
        })
    }

    fn describe(&self) -> String {
        self.store.describe()
    }
}
