//! What every [`SuspensionLedger`] must do, checked the same way against
//! each one: tool-core's memory ledger and the test's file ledger here
//! (tests/tests/executor/approval_lifecycle.rs), tool-redis's ledger on a
//! real Redis in the interop suite (interop/checks/redis_ledger.sh).

use tool_core::approval::{Claim, Claimed, SuspensionLedger};

/// Far in the future, in milliseconds since the Unix epoch.
const LATER: u64 = u64::MAX / 2;

/// Checks `ledger`'s claims, renewals, releases, take-overs and finishes,
/// on ids starting with `prefix` (so that a shared store's other records
/// are not touched). Panics naming the step that went wrong.
pub async fn check(ledger: &dyn SuspensionLedger, prefix: &str) {
    let id = format!("{prefix}.once");
    let running = ids(&["c1", "c2"]);
    let claim = |holder| Claim::new(&id, holder, &running, LATER).kept_until(LATER);
    assert_eq!(
        ledger.claim(&claim("a")).await,
        Ok(Claimed::Fresh),
        "first claim"
    );
    assert_eq!(
        ledger.claim(&claim("b")).await,
        Ok(Claimed::Busy {
            lease_until_ms: LATER
        }),
        "a claim while the first holds it"
    );
    assert_eq!(
        ledger.renew(&id, "b", LATER).await,
        Ok(false),
        "renewed by another holder"
    );
    assert_eq!(
        ledger.renew(&id, "a", LATER).await,
        Ok(true),
        "renewed by its holder"
    );
    ledger.finish(&id, "b").await.unwrap();
    assert!(
        matches!(ledger.claim(&claim("b")).await, Ok(Claimed::Busy { .. })),
        "another holder's finish changes nothing"
    );
    ledger.finish(&id, "a").await.unwrap();
    assert_eq!(
        ledger.claim(&claim("b")).await,
        Ok(Claimed::Finished),
        "after finish"
    );
    assert_eq!(
        ledger.renew(&id, "a", LATER).await,
        Ok(false),
        "renewed after finish"
    );

    let lost = format!("{prefix}.lost");
    let first = Claim::new(&lost, "a", &running, LATER).kept_until(LATER);
    assert_eq!(ledger.claim(&first).await, Ok(Claimed::Fresh));
    assert_eq!(ledger.renew(&lost, "a", 0).await, Ok(true), "released");
    let more = ids(&["c2", "c3"]);
    let second = Claim::new(&lost, "b", &more, 1).kept_until(LATER);
    assert_eq!(
        ledger.claim(&second).await,
        Ok(Claimed::TakenOver {
            interrupted: ids(&["c1", "c2"])
        }),
        "a released claim is taken over with the calls it may have run"
    );
    let third = Claim::new(&lost, "c", &[], LATER).kept_until(LATER);
    let Ok(Claimed::TakenOver { mut interrupted }) = ledger.claim(&third).await else {
        panic!("a lapsed lease is taken over");
    };
    interrupted.sort();
    assert_eq!(
        interrupted,
        ids(&["c1", "c2", "c3"]),
        "every call either may have run"
    );
    assert_eq!(
        ledger.renew(&lost, "b", LATER).await,
        Ok(false),
        "b lost it to c"
    );
    ledger.finish(&lost, "c").await.unwrap();
    assert_eq!(ledger.claim(&third).await, Ok(Claimed::Finished));

    let awkward = format!("{prefix}.awkward");
    let odd = ids(&["with \"quotes\"", "new\nline", "ünï"]);
    let claim = Claim::new(&awkward, "a", &odd, 0).kept_until(LATER);
    assert_eq!(ledger.claim(&claim).await, Ok(Claimed::Fresh));
    let again = Claim::new(&awkward, "b", &[], LATER).kept_until(LATER);
    assert_eq!(
        ledger.claim(&again).await,
        Ok(Claimed::TakenOver { interrupted: odd }),
        "call ids of any text come back as they went in"
    );
}

fn ids(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| (*name).to_owned()).collect()
}
