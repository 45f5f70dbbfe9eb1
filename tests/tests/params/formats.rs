//! `Format::is_valid` agrees with the `jsonschema` crate (draft 2020-12,
//! `should_validate_formats(true)`) on `{"type": "string", "format": name}`,
//! for every [`Format`]:
//!
//! - on a fixed corpus per format ([`corpus`]): the JSON Schema test suite's
//!   `optional/format` cases, RFC examples, edge cases, and every input a
//!   property test below ever found a disagreement on;
//! - on [`CASES`] (3000) generated strings per format, mostly *near valid*:
//!   a valid seed with one to four small edits (a character changed,
//!   inserted or deleted from an alphabet of the characters that matter to
//!   the format, a slice repeated, the end cut off), plus strings drawn
//!   from that alphabet and wholly random strings. Host names also get
//!   A-labels made by encoding random Unicode labels with Punycode (RFC
//!   3492, [`punycode_encode`]), so the U-label rules see real input; URIs
//!   and email addresses are also put together from forms of each of their
//!   parts ([`URI_PARTS`], [`EMAIL_PARTS`]), valid and not.
//!
//! Each property run also checks that both outcomes are frequent (at least
//! a tenth of the cases valid and a tenth invalid): a generator that drifts
//! far from the boundary would prove little.

use std::cell::Cell;
use std::sync::LazyLock;

use jsonschema::{Draft, Validator};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::strategy::{BoxedStrategy, Union};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::json;
use tool_core::params::Format;

/// Generated strings per format.
const CASES: u32 = 3000;

/// The reference validator of each format, in `Format::ALL` order.
static VALIDATORS: LazyLock<Vec<Validator>> = LazyLock::new(|| {
    Format::ALL
        .iter()
        .map(|format| {
            jsonschema::options()
                .with_draft(Draft::Draft202012)
                .should_validate_formats(true)
                .build(&json!({"type": "string", "format": format.name()}))
                .expect("the schema compiles")
        })
        .collect()
});

/// Whether the reference validator accepts `text` as `format`.
fn reference(format: Format, text: &str) -> bool {
    let index = Format::ALL.iter().position(|f| *f == format).unwrap();
    VALIDATORS[index].is_valid(&json!(text))
}

/// Both verdicts on `text`, or a message naming the disagreement.
fn agree(format: Format, text: &str) -> Result<bool, String> {
    let ours = format.is_valid(text);
    let theirs = reference(format, text);
    if ours == theirs {
        Ok(ours)
    } else {
        Err(format!(
            "{}: is_valid({text:?}) = {ours}, jsonschema says {theirs}",
            format.name()
        ))
    }
}

// ---------------------------------------------------------------------------
// The fixed corpus.

const DATE_TIME: &[&str] = &[
    "2026-11-30T16:43:18Z",
    "1963-06-19T08:30:06.283185Z",
    "1963-06-19T08:30:06Z",
    "1937-01-01T12:00:27.87+00:20",
    "1990-12-31T15:59:50.123-08:00",
    "1998-12-31T23:59:60Z",
    "1998-12-31T15:59:60.123-08:00",
    "1998-12-31T23:59:61Z",
    "1998-12-31T23:58:60Z",
    "1998-12-31T22:59:60Z",
    "1990-02-31T15:59:59.123-08:00",
    "1990-12-31T15:59:59-24:00",
    "1963-06-19T08:30:06.28123+01:00Z",
    "1990-12-31T24:00:00Z",
    "1990-12-31T15:60:00Z",
    "1990-12-31T10:00:00+10:60",
    "06/19/1963 08:30:06 PST",
    "1963-06-19t08:30:06.283185z",
    "2013-350T01:01:01",
    "1963-6-19T08:30:06.283185Z",
    "1963-06-1T08:30:06.283185Z",
    "1963-06-1৪T00:00:00Z",
    "1963-06-11T0৪:00:00Z",
    "+11963-06-19T08:30:06.283185Z",
    "1985-04-12T00:59:59.999999999999999Z",
    "2024-02-29T12:00:00Z",
    "2023-02-29T12:00:00Z",
    "1900-02-29T12:00:00Z",
    "2000-02-29T12:00:00Z",
    "0000-02-29T00:00:00Z",
    "2026-11-30 16:43:18Z",
    "2026-11-30T16:43:18",
    "2026-11-30T16:43Z",
    "2026-11-30T16:43:18.Z",
    "2026-11-30T16:43:18+0100",
    "2026-11-30T16:43:18+01",
    "2026-11-30T16:43:18z",
    "2026-11-30t16:43:18Z",
    "2026-11-30T16:43:18Z ",
    "2026-11-30T16:43:18Z\n",
    "2026-11-30TT16:43:18Z",
    "2026-11-30",
    "16:43:18Z",
    "",
    "T",
    "2026-11-30T00:00:60+00:01",
    "2026-11-30T00:00:60-23:59",
    "2026-11-30T23:59:60-00:00",
    "2026-11-30T16:43:18-00:00",
    "2026-11-30T16:43:18+23:59",
    "2026-11-30T16:43:18+24:00",
    "2026-11-30é16:43:18Z",
    "２０２６-11-30T16:43:18Z",
];

const DATE: &[&str] = &[
    "2026-11-30",
    "1963-06-19",
    "2020-01-31",
    "2021-01-32",
    "2020-02-28",
    "2021-02-29",
    "2020-02-29",
    "2020-02-30",
    "2020-03-31",
    "2020-03-32",
    "2020-04-30",
    "2020-04-31",
    "2020-05-31",
    "2020-06-31",
    "2020-07-31",
    "2020-08-31",
    "2020-09-30",
    "2020-09-31",
    "2020-10-31",
    "2020-11-30",
    "2020-11-31",
    "2020-12-31",
    "2020-12-32",
    "2020-13-01",
    "2020-00-01",
    "2020-01-00",
    "06/19/1963",
    "2013-350",
    "1998-1-20",
    "1998-01-1",
    "1998-13-01",
    "1998-04-31",
    "2000-02-29",
    "1900-02-29",
    "0000-02-29",
    "9999-12-31",
    "1963-06-1৪",
    "20230-10-10",
    "2023-10-10T00:00:00Z",
    "2023-10-10 ",
    " 2023-10-10",
    "",
    "2023/10/10",
    "+2023-10-10",
    "2023-1O-10",
];

const TIME: &[&str] = &[
    "16:43:18+01:00",
    "08:30:06Z",
    "008:030:006Z",
    "8:3:6Z",
    "8:0030:6Z",
    "23:59:60Z",
    "22:59:60Z",
    "23:58:60Z",
    "23:59:60+00:00",
    "22:59:60+00:00",
    "23:58:60+00:00",
    "01:29:60+01:30",
    "23:29:60+23:30",
    "23:59:60+01:00",
    "23:59:60+00:30",
    "15:59:60-08:00",
    "00:29:60-23:30",
    "23:59:60-01:00",
    "23:59:60-00:30",
    "23:20:50.52Z",
    "08:30:06.283185Z",
    "08:30:06+00:20",
    "08:30:06-08:00",
    "12:34:56-00:00",
    "08:30:06-8:000",
    "08:30:06z",
    "24:00:00Z",
    "00:60:00Z",
    "00:00:61Z",
    "01:02:03+24:00",
    "01:02:03+00:60",
    "01:02:03Z+00:30",
    "08:30:06 PST",
    "01:01:01,1111",
    "12:00:00",
    "12:00:00.52",
    "1২:00:00Z",
    "08:30:06#00:20",
    "ab:cd:ef",
    "2020-11-28T23:55:45Z",
    "08:30:06+0130",
    "08:30:06+01",
    "08:30:06Z\n",
    "24:59:00+01:00",
    "08:30:06.Z",
    "08:30:06..5Z",
    "08:30:06.5.5Z",
    "23:59:60.5Z",
    "",
    "Z",
    "00:00:00",
    "00:00:00Zz",
];

const DURATION: &[&str] = &[
    "P1DT2H",
    "P4DT12H30M5S",
    "PT1D",
    "4DT12H30M5S",
    "P",
    "P1YT",
    "PT",
    "P2D1Y",
    "P1D2H",
    "P2S",
    "P4Y",
    "PT0S",
    "P0D",
    "P1M",
    "PT1M",
    "PT36H",
    "P1DT12H",
    "P2W",
    "P1Y2W",
    "P২Y",
    "P1",
    "P1Y2M3DT4H5M6S",
    "P1Y2M3D",
    "PT1H2M3S",
    "P1M2D",
    "PT1H30M",
    "P10Y10M10DT10H10M10S",
    "PT0.5S",
    " P1D",
    "P1D ",
    "",
    "P1Y2M",
    "P1Y2D",
    "PT1H2S",
    "PT1M2S",
    "-P1D",
    "P1D2T3H",
    "P1e2D",
    "P1D\n",
    "P1WT1H",
    "P0Y1W",
    "P01D",
    "P999999999999999999999999999999999999999999999999999999999999999999999999999999D",
    "PT0,5S",
    "P-1D",
    "p1d",
    "P1d",
    "P1Dt1H",
    "PT1H1H",
    "P1Y1Y",
    "P1W1W",
    "P1WT",
    "PTT1H",
    "P1DTT1H",
    "PT1S1M",
    "PD",
];

const EMAIL: &[&str] = &[
    "someone@example.com",
    "joe.bloggs@example.com",
    "2962",
    "te~st@example.com",
    "~test@example.com",
    "test~@example.com",
    "\"joe bloggs\"@example.com",
    "\"joe..bloggs\"@example.com",
    "\"joe@bloggs\"@example.com",
    "joe.bloggs@[127.0.0.1]",
    "joe.bloggs@[IPv6:::1]",
    ".test@example.com",
    "test.@example.com",
    "te.s.t@example.com",
    "te..st@example.com",
    "joe.bloggs@invalid=domain.com",
    "joe.bloggs@[127.0.0.300]",
    "user1@oceania.org, user2@oceania.org",
    "\"Winston Smith\" <winston.smith@recdep.minitrue> (Records Department)",
    "@example.com",
    "joe.bloggs@",
    "joe bloggs@example.com",
    "test@255.255.255.255",
    "\"\"@iana.org",
    "\" \"@iana.org",
    "test@c--n.com",
    "test@123.com",
    "a\u{e9}@iana.org",
    "a@\u{e9}.org",
    "a\u{ff20}iana.org",
    "\"test\\\u{a9}\"@iana.org",
    "test@iana.org\n",
    "test@iana.org\r",
    "a@iana.org ",
    " a@iana.org",
    "a\tb@iana.org",
    "\u{7f}@iana.org",
    "\"test\"@iana.org",
    "\"\\a\"@iana.org",
    "\"\\\"\"@iana.org",
    "\"\\\\\"@iana.org",
    "test\"@iana.org",
    "\"test\"test@iana.org",
    "\"test@iana.org",
    "a@b@c.org",
    "test\\@test@iana.org",
    "[1.2.3.4]@iana.org",
    "",
    "test@-iana.org",
    "test@iana-.com",
    "test@.iana.org",
    "test@iana.org.",
    "test@iana..com",
    "test@io",
    "test@[1.2.3.4",
    "a@[]",
    "a@[1.2.3]",
    "a@[1.2.3.4.5]",
    "test@[RFC-5322-domain-literal]",
    "test@a[255.255.255.255]",
    "a@[ipv6:::1]",
    "a@[IPV6:2001:db8::1]",
    "a@[IPv6:1:2:3:4:5:6:7::]",
    "a@[IPv6:1::3:4:5:6:7:8]",
    "a@[IPv6:1.2.3.4]",
    "a@[IPv6:::ffff:1.2.3.4]",
    "a@[IPv6:fe80::1%eth0]",
    "a@[010.0.0.1]",
    "a,b@iana.org",
    "a;b@iana.org",
    "a:b@iana.org",
    "test(comment)@iana.org",
    "a@b(c).org",
    "a@xn--bcher-kva.example",
    "a@xn--ab-0ea.example",
    "a@XN--bcher-kva.example",
    "Someone <someone@example.com>",
    "<someone@example.com>",
    "Someone <someone@example.com",
    "Someone<someone@example.com>",
    "\"\"@a <b@c.com>",
    "\"\"@\"\"@iana.org",
    "\"a\"@\"b\"",
    "\"a\\\"@iana.org",
    "\"a\"\"b\"@iana.org",
    "a@b_c.org",
    "!#$%&'*+-/=?^_`{|}~@example.com",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com",
];

const HOSTNAME: &[&str] = &[
    "api.example.com",
    "www.example.com",
    "xn--4gbwdl.xn--wgbh1c",
    "-a-host-name-that-starts-with--",
    "not_a_valid_host_name",
    "a-vvvvvvvvvvvvvvvveeeeeeeeeeeeeeeerrrrrrrrrrrrrrrryyyyyyyyyyyyyyyy-long-host-name-component",
    "-hostname",
    "hostname-",
    "_hostname",
    "hostname_",
    "host_name",
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk.com",
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl.com",
    "",
    ".",
    "example.com.",
    ".example.com",
    "a..b",
    "a",
    "1",
    "123.456",
    "localhost",
    "LOCALHOST",
    "ab--cd",
    "a--b",
    "xn--",
    "xn--a",
    "xn---abc",
    "xn--bcher-kva",
    "XN--bcher-kva",
    "Xn--bcher-kva",
    "xn--Bcher-kva",
    "xn--bcher-kv",
    "xn--bcher-kva-",
    "xn--99999999999999",
    "xn--zzzzzzzzzzzzz",
    "xn--ll-0ea",
    "xn--ab-0ea",
    "xn--ksa",
    "xn--vek",
    "xn--cckyj",
    "xn--chb",
    "xn--n3h",
    "xn--wca",
    "xn--11b6iy14e",
    "xn--11b478i",
    "xn--9hb20a",
    "xn--wva3je",
    "xn--wva",
    "xn--4db4e",
    "xn--4eb",
    "xn--egbpdaj6bu4bxfgehfvwxn",
    "xn--ihqwcrb4cv8a8dqg056pqjye",
    "xn--nw2a.xn--j6w193g",
    // jsonschema checks neither the hyphen rules of RFC 5891 section 4.2.3.1
    // on the decoded label ("-abé", "abé-", "ab--é") nor its case ("éA").
    "xn---ab-dma",
    "xn--ab--cma",
    "xn--ab---epa",
    "xn--A-9fa",
    // Block boundaries and exceptions of the U-label rules (Python's RFC 3492
    // codec encoded them).
    // keraia + U+0370 (block start)
    "xn--rvaj",
    // keraia + U+03FF (block end)
    "xn--wva0z",
    // keraia + U+0400 (past the block)
    "xn--wva2z",
    // keraia + U+1F00 (Greek Extended: Greek script, outside the block)
    "xn--wva612l",
    // U+0591 + geresh
    "xn--ccb0r",
    // U+05FF + gershayim
    "xn--5ebv",
    // U+0600 + geresh
    "xn--4ebz",
    // U+05EA + gershayim
    "xn--vebu",
    // katakana middle dot + U+3040
    "xn--j8j7u",
    // katakana middle dot + U+309F
    "xn--8bk4j",
    // katakana middle dot + U+30A0
    "xn--9bk2j",
    // katakana middle dot + U+30FF
    "xn--veki",
    // katakana middle dot + U+4E00
    "xn--vek868f",
    // katakana middle dot + U+9FFF
    "xn--vek0654a",
    // katakana middle dot + U+3400 (Han, outside the block)
    "xn--vek73g",
    // katakana middle dot + U+A000
    "xn--vek2654a",
    // two katakana middle dots
    "xn--veka",
    // L, middle dot, l
    "xn--Ll-0ea",
    // l, middle dot, L
    "xn--lL-0ea",
    // middle dot, l
    "xn--l-fda",
    // l, middle dot
    "xn--l-gda",
    // ZWJ after U+1BAB, a virama outside jsonschema's table
    "xn--jxf6az1x",
    // ZWJ first
    "xn--9ca750n",
    // ZWNJ alone
    "xn--0ug",
    // Arabic-Indic digits alone
    "xn--9hbc",
    // extended Arabic-Indic digits alone
    "xn--embc",
    // U+309B (Sk) in the Hiragana block
    "xn--4bk",
    // U+3040, unassigned, in the Hiragana block
    "xn--j8j",
    // U+0378, unassigned
    "xn--zva",
    // U+E000, private use
    "xn--0y0c",
    // U+00DF sharp s
    "xn--zca",
    // U+03C2 final sigma
    "xn--3xa",
    // U+06FD
    "xn--qmb",
    // U+0F0B
    "xn--nbd",
    // U+3007
    "xn--w6j",
    // U+07FA
    "xn--ytb",
    // U+303B
    "xn--e8j",
    // U+01C5, titlecase
    "xn--kja",
    // U+02B0, modifier letter
    "xn--9pa",
    // U+0903 (Mc) first
    "xn--j1b",
    // U+20DD (Me) first
    "xn--z0g",
    // a, U+0300
    "xn--a-vbb",
    "é.com",
    "exa mple.com",
    "example.com\n",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

const IPV4: &[&str] = &[
    "192.0.2.1",
    "192.168.0.1",
    "127.0.0.0.1",
    "256.256.256.256",
    "127.0",
    "0x7f000001",
    "2130706433",
    "087.10.0.1",
    "087.10.0.01",
    "0.0.0.0",
    "255.255.255.255",
    "1২7.0.0.1",
    "192.168.1.0/24",
    "",
    "1.2.3.4 ",
    " 1.2.3.4",
    "1.2.3.",
    ".1.2.3",
    "1..2.3",
    "1.2.3.4.",
    "01.2.3.4",
    "00.2.3.4",
    "1.2.3.00",
    "1.2.3.0",
    "1.2.3.256",
    "1.2.3.255",
    "1.2.3.1000",
    "1.2.3.-1",
    "1.2.3.+1",
    "a.b.c.d",
    "1.2.3.4a",
    "::1",
    "::ffff:1.2.3.4",
    "1.2.3.4:80",
    "１.2.3.4",
    "10.0.0.1",
    "172.16.254.1",
    "0.1.2.3",
    "9.9.9.9",
    "99.99.99.99",
    "999.99.99.99",
    "1,2,3,4",
];

const IPV6: &[&str] = &[
    "2001:db8::1",
    "::1",
    "12345::",
    "::abef",
    "::abcef",
    "1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1",
    "::laptop",
    "::",
    "::42:ff:1",
    "d6::",
    ":2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:",
    ":2:3:4::8",
    "1:d6::42",
    "1::d6::42",
    "1::d6:192.168.0.1",
    "1:2::192.168.0.1",
    "1::2:192.168.256.1",
    "1::2:192.168.ff.1",
    "::ffff:192.168.0.1",
    "1:2:3:4:5:::8",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7",
    "1",
    "127.0.0.1",
    "1:2:3:4:1.2.3",
    "  ::1",
    "::1  ",
    "fe80::/64",
    "fe80::a%eth1",
    "1000:1000:1000:1000:1000:1000:255.255.255.255",
    "100:100:100:100:100:100:255.255.255.255.255",
    "100:100:100:100:100:100:100:255.255.255.255",
    "1:2:3:4:5:6:7:৪",
    "1:2::192.16৪.0.1",
    "::ffff:256.1.1.1",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "1::3:4:5:6:7:8",
    "1::2:3:4:5:6:7:8",
    "::ffff:01.2.3.4",
    "1.2.3.4::",
    "[::1]",
    "2001:DB8::1",
    "FFFF::",
    "0000:0000:0000:0000:0000:0000:0000:0000",
    "00000::",
    ":::",
    ":",
    "",
];

const UUID: &[&str] = &[
    "123e4567-e89b-12d3-a456-426614174000",
    "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
    "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
    "2eb8aa08-AA98-11ea-B4Aa-73B441D16380",
    "00000000-0000-0000-0000-000000000000",
    "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
    "2eb8aa08-aa98-11ea-b4ga-73b441d16380",
    "2eb8aa08aa9811eab4aa73b441d16380",
    "2eb8aa08aa98-11ea-b4aa73b441d16380",
    "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380",
    "2eb8aa08aa9811eab4aa73b441d16380----",
    "98d80576-482e-427f-8434-7f86890ab222",
    "99c17cbb-656f-564a-940f-1a4568f03487",
    "99c17cbb-656f-f64a-c40f-1a4568f03487",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "",
    "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
    "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380",
    "2eb8aa08-aa98-11ea-b4aa-73b441d16380 ",
    " 2eb8aa08-aa98-11ea-b4aa-73b441d16380",
    "2eb8aa08_aa98_11ea_b4aa_73b441d16380",
    "2eb8aa08-aa98-11ea-b4aa-73b441d1638é",
    "2eb8aa08-aa98-11ea-b4aa-73b441d163é",
    "2eb8aa0-8aa98-11ea-b4aa-73b441d16380",
    "2eb8aa08-aa9-811ea-b4aa-73b441d16380",
    "2eb8aa08-aa98-11e-ab4aa-73b441d16380",
    "2eb8aa08-aa98-11ea-b4a-a73b441d16380",
    "g0000000-0000-0000-0000-000000000000",
    "00000000-0000-0000-0000-00000000000G",
    "00000000-0000-0000-0000-00000000000",
    "00000000-0000-0000-0000-0000000000000",
    "0000000000000000000000000000000000000",
    "000000000000000000000000000000000000",
    "------------------------------------",
    "00000000--000-0000-0000-000000000000",
    "00000000-0000-0000-0000+000000000000",
    "00000000-0000-0000-0000-0000000000\u{0}0",
    "ABCDEFAB-CDEF-ABCD-EFAB-CDEFABCDEFAB",
    "abcdefab-cdef-abcd-efab-cdefabcdefab",
    "abcdefab-cdef-abcd-efab-cdefabcdefag",
];

const URI: &[&str] = &[
    "https://example.com/a?b#c",
    "http://foo.bar/?baz=qux#quux",
    "http://foo.com/blah_(wikipedia)_blah#cite-1",
    "http://foo.bar/?q=Test%20URL-encoded%20stuff",
    "http://xn--nw2a.xn--j6w193g/",
    "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
    "http://223.255.255.254",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "//foo.bar/?baz=qux#quux",
    "/abc",
    "\\\\WINDOWS\\fileshare",
    "abc",
    "http:// shouldfail.com",
    ":// should fail",
    "bar,baz:foo",
    "https://[@example.org/test.txt",
    "https://example.org/foobar®.txt",
    "https://example.org/foobar\\.txt",
    "https://example.org/foobar\".txt",
    "https://example.org/foobar<>.txt",
    "https://example.org/foobar{}.txt",
    "https://example.org/foobar^.txt",
    "https://example.org/foobar`.txt",
    "https://example.org/foo bar.txt",
    "https://example.org/foobar|.txt",
    "http://087.10.0.1/",
    "http://999.999.999.999/",
    "http://example.com/%6G",
    "http://example.com/%A",
    "http://example.com/%",
    "1http://example.com",
    "ht_tp://example.com",
    "http://example.com:abc/path",
    "http://a.com:8:0",
    "http://a.com::",
    "http://a.com:",
    "http://a.com:999999999",
    "http://:80",
    "http://@a.com",
    "http://user@",
    "http://!$&'()*+,;=.com",
    "http://example.com.",
    "http://exa~mple.com/",
    "http://under_score.com/",
    "http://[::1]:8080/",
    "http://[::1]:8080x",
    "http://[::1]x",
    "http://[::1",
    "http://::1]",
    "http://[1.2.3.4]",
    "http://[::ffff:1.2.3.4]",
    "http://[::ffff:1.2.3.04]",
    "http://[1:2:3:4:5:6:7::]",
    "http://[1::2:3:4:5:6:7:8]",
    "http://[fe80::1%25eth0]",
    "http://[v1.fe80::a+en1]",
    "http://[V1.x]",
    "http://[v1]",
    "http://[v.x]",
    "http://[v1.]",
    "http://[vg.x]",
    "http://[v1.%41]",
    "http://[v1.x/]",
    "http://a[::1]",
    "http://[::1]@a",
    "http://u@[::1]",
    "http://u:p@[::1]:1/p?q#f",
    "http://u@h@[::1]",
    "http://[::1][::1]",
    "http://]",
    "http://[]",
    "http://a/[b]",
    "http://a?[b]",
    "a:",
    "a:/",
    "a://",
    "a:///path",
    "a:b:c",
    "a+b-c.d:x",
    "a:?",
    "a:#",
    "a:?/?#/?",
    "a:b#c#d",
    "a:%41",
    "a:%",
    "a:%4",
    "a:%4g",
    "a:\u{e9}",
    "a:b\n",
    "é:b",
    "HTTP://EXAMPLE.COM",
    "http://a@b@c",
    ":",
    "",
];

/// The fixed corpus of `format`.
fn corpus(format: Format) -> &'static [&'static str] {
    match format {
        Format::DateTime => DATE_TIME,
        Format::Date => DATE,
        Format::Time => TIME,
        Format::Duration => DURATION,
        Format::Email => EMAIL,
        Format::Hostname => HOSTNAME,
        Format::Ipv4 => IPV4,
        Format::Ipv6 => IPV6,
        Format::Uuid => UUID,
        Format::Uri => URI,
        _ => unreachable!("a format this test does not know: {format:?}"),
    }
}

#[test]
fn the_corpus_agrees() {
    let mut disagreements = Vec::new();
    for format in Format::ALL {
        let corpus = corpus(format);
        assert!(
            corpus.len() >= 40,
            "{}: {} strings",
            format.name(),
            corpus.len()
        );
        let mut valid = 0;
        for text in corpus {
            match agree(format, text) {
                Ok(ok) => valid += usize::from(ok),
                Err(message) => disagreements.push(message),
            }
        }
        assert!(
            valid >= 5 && corpus.len() - valid >= 5,
            "{}: {valid} of {} valid",
            format.name(),
            corpus.len()
        );
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn every_example_is_valid_for_the_reference() {
    for format in Format::ALL {
        assert!(reference(format, format.example()), "{}", format.name());
    }
}

// ---------------------------------------------------------------------------
// Generators.

/// Valid strings of `format`, to edit.
fn seeds(format: Format) -> &'static [&'static str] {
    match format {
        Format::DateTime => &[
            "2026-11-30T16:43:18Z",
            "1963-06-19t08:30:06.283185z",
            "1998-12-31T15:59:60.123-08:00",
            "2024-02-29T00:00:00+14:00",
            "1937-01-01T12:00:27.87+00:20",
        ],
        Format::Date => &[
            "2026-11-30",
            "2024-02-29",
            "2000-02-29",
            "1999-12-31",
            "0000-01-01",
        ],
        Format::Time => &[
            "16:43:18+01:00",
            "23:59:60Z",
            "08:30:06.283185z",
            "15:59:60-08:00",
            "00:29:60-23:30",
            "12:34:56.7-00:00",
        ],
        Format::Duration => &[
            "P1DT2H",
            "P1Y2M3DT4H5M6S",
            "P2W",
            "PT1M2S",
            "P1Y2M",
            "PT36H",
            "P0D",
        ],
        Format::Email => &[
            "someone@example.com",
            "joe.bloggs@[127.0.0.1]",
            "a@[IPv6:2001:db8::1]",
            "\"joe bloggs\"@iana.org",
            "\"\"@iana.org",
            "\"\\\"\"@iana.org",
            "te.s~t@c--n.com",
            "Someone <someone@example.com>",
            "a@xn--bcher-kva.example",
            "!#$%&'*+-/=?^_`{|}~@io",
        ],
        Format::Hostname => &[
            "api.example.com",
            "xn--4gbwdl.xn--wgbh1c",
            "xn--bcher-kva.example",
            "xn--ll-0ea",
            "xn--11b6iy14e",
            "a-b.c1",
            "localhost",
            "xn--ihqwcrb4cv8a8dqg056pqjye",
        ],
        Format::Ipv4 => &["192.0.2.1", "0.0.0.0", "255.255.255.255", "10.200.0.99"],
        Format::Ipv6 => &[
            "2001:db8::1",
            "::",
            "1:2:3:4:5:6:7:8",
            "::ffff:192.168.0.1",
            "1:2:3:4:5:6:1.2.3.4",
            "1:2:3:4:5:6:7::",
            "fe80::abcd:ef01",
        ],
        Format::Uuid => &[
            "123e4567-e89b-12d3-a456-426614174000",
            "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
        ],
        Format::Uri => &[
            "https://example.com/a?b#c",
            "http://u:p@[2001:db8::7]:8080/c=GB?objectClass?one",
            "http://[v1.fe80::a+en1]/",
            "mailto:John.Doe@example.com",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
            "file:///etc/hosts",
            "a:",
            "http://[::ffff:1.2.3.4]",
        ],
        _ => unreachable!("a format this test does not know: {format:?}"),
    }
}

const DIGITS: &str = "0123456789";

/// The characters edits draw from for `format`. Digits and the format's
/// punctuation come often; a few odd characters (non-ASCII digits,
/// whitespace, multi-byte characters) now and then.
fn alphabet(format: Format) -> Vec<char> {
    let specific = match format {
        Format::DateTime | Format::Date | Format::Time => "--::..TtZz++ ,৪é\n0123456789",
        Format::Duration => "PPTTYMWDHSYMWDHSpt.,- ২",
        Format::Email => "@@..\"\"\\[]-:<> (),_é\t+!~IPv6abzAZ%",
        Format::Hostname => "..--xnXN_ é-abcz",
        Format::Ipv4 => "..... ax/৪:-+",
        Format::Ipv6 => "::::::....abcdefABCDEFg%/ []৪",
        Format::Uuid => "----abcdefABCDEFgG{} é",
        Format::Uri => ":/?#[]@%%.-+~!$&'()*,;= \"<>\\^`{}|vVé_abcxyzAZ",
        _ => unreachable!("a format this test does not know: {format:?}"),
    };
    DIGITS
        .chars()
        .chain(DIGITS.chars())
        .chain(specific.chars())
        .collect()
}

/// One edit of a string, as characters.
#[derive(Clone, Debug)]
enum Edit {
    Change(Index, char),
    Insert(Index, char),
    Delete(Index),
    /// Copies the slice between two positions to a third.
    Repeat(Index, Index, Index),
    Truncate(Index),
}

fn edit(alphabet: Vec<char>) -> impl Strategy<Value = Edit> {
    let character = select(alphabet);
    prop_oneof![
        6 => (any::<Index>(), character.clone()).prop_map(|(at, c)| Edit::Change(at, c)),
        3 => (any::<Index>(), character).prop_map(|(at, c)| Edit::Insert(at, c)),
        2 => any::<Index>().prop_map(Edit::Delete),
        1 => (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(a, b, to)| Edit::Repeat(a, b, to)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        // Positions between characters, ends included.
        let gap = |index: &Index, chars: &Vec<char>| index.index(chars.len() + 1);
        match edit {
            Edit::Change(at, c) if !chars.is_empty() => {
                let at = at.index(chars.len());
                chars[at] = *c;
            }
            Edit::Insert(at, c) => {
                let at = gap(at, &chars);
                chars.insert(at, *c);
            }
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at.index(chars.len()));
            }
            Edit::Repeat(a, b, to) => {
                let (a, b) = (gap(a, &chars), gap(b, &chars));
                let slice: Vec<char> = chars[a.min(b)..a.max(b)].to_vec();
                let to = gap(to, &chars);
                chars.splice(to..to, slice);
            }
            Edit::Truncate(at) => {
                let at = gap(at, &chars);
                chars.truncate(at);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Mostly valid seeds with one to four edits; some seeds as they are, some
/// strings of the alphabet, some arbitrary strings.
fn near_valid(format: Format) -> BoxedStrategy<String> {
    let alphabet = alphabet(format);
    let seeds = seeds(format);
    // Mostly one edit: the string stays near the boundary.
    let edits =
        prop_oneof![3 => vec(edit(alphabet.clone()), 1), 1 => vec(edit(alphabet.clone()), 2..=4)];
    let edited = (select(seeds), edits).prop_map(|(seed, edits)| apply(seed, &edits));
    let mut arms = vec![
        (12, edited.boxed()),
        (2, select(seeds).prop_map(str::to_owned).boxed()),
        (
            1,
            vec(select(alphabet.clone()), 0..24)
                .prop_map(|chars| chars.into_iter().collect())
                .boxed(),
        ),
        (1, any::<String>().boxed()),
    ];
    match format {
        Format::Hostname => arms.push((10, a_label_host_names().boxed())),
        Format::Email => {
            arms.push((
                2,
                a_label_host_names()
                    .prop_map(|host| format!("a@{host}"))
                    .boxed(),
            ));
            arms.push((6, composed(EMAIL_PARTS, alphabet.clone())));
        }
        Format::Uri => arms.push((6, composed(URI_PARTS, alphabet.clone()))),
        _ => {}
    }
    Union::new_weighted(arms).boxed()
}

/// The parts of a URI, in order, each with the forms it may take (valid or
/// not): a scheme, an authority's user information, host and port, a path,
/// a query, a fragment.
const URI_PARTS: &[&[&str]] = &[
    &["http:", "a:", "x+y-z.1:", "1a:", "h_t:", "", ":"],
    &["//", "", "//", "/"],
    &[
        "", "", "u@", "u:p@", "@", "%41:%42@", "%4@", "u@v@", "[@", "a b@",
    ],
    &[
        "example.com",
        "",
        "[::1]",
        "[2001:db8::7]",
        "[1:2:3:4:5:6:7:8]",
        "[1:2:3:4:5:6:7::]",
        "[::ffff:1.2.3.4]",
        "[::ffff:1.2.3.04]",
        "[1::2::3]",
        "[::1",
        "::1]",
        "[fe80::1%25eth0]",
        "[v1.x]",
        "[V1a.b:c]",
        "[v.x]",
        "[v1.]",
        "[1.2.3.4]",
        "999.1.1.1",
        "a%20b",
        "a%2",
        "!$&'()*+,;=",
        "[]",
    ],
    &["", "", ":", ":80", ":8a", "::", ":80:80"],
    &[
        "", "/", "/a/b", "//x", "/%zz", "/a:b", "a", "/[x]", "/ ", "/a@b",
    ],
    &["", "", "?", "?q=1", "?a/b?c", "?%", "?#", "?[", "?a b"],
    &["", "", "#", "#f", "#a/b?c", "#a#b", "#%41", "#^"],
];

/// The parts of an email address: a display name, a local part, a domain.
const EMAIL_PARTS: &[&[&str]] = &[
    &["", "", "", "Name <", "\"Name\" <", "<", " "],
    &[
        "a",
        "a.b",
        ".a",
        "a.",
        "a..b",
        "\"\"",
        "\"a b\"",
        "\"a\\\"b\"",
        "\"a\\\\\"",
        "\"a\"b",
        "\"\\é\"",
        "é",
        "!#$%&'*+-/=?^_`{|}~",
        "a(b)",
        "\"@\"",
        "",
    ],
    &["@", "@", "@", "", "@@"],
    &[
        "example.com",
        "io",
        "[127.0.0.1]",
        "[127.0.0.01]",
        "[1.2.3]",
        "[IPv6:::1]",
        "[ipv6:2001:db8::1]",
        "[IPv6:1.2.3.4]",
        "[IPv6:1:2:3:4:5:6:7::]",
        "[IPv6:]",
        "[tag:content]",
        "[]",
        "xn--bcher-kva.example",
        "-a.com",
        "a.com.",
        "a_b.com",
        "é.com",
        "1.2.3.4",
    ],
    &["", "", "", ">", " >", "> "],
];

/// Strings made of one form of each part of `parts`, now and then edited.
fn composed(
    parts: &'static [&'static [&'static str]],
    alphabet: Vec<char>,
) -> BoxedStrategy<String> {
    let choices: Vec<_> = parts.iter().map(|forms| select(*forms)).collect();
    (choices, vec(edit(alphabet), 0..=1))
        .prop_map(|(chosen, edits): (Vec<&str>, Vec<Edit>)| apply(&chosen.concat(), &edits))
        .boxed()
}

// ---------------------------------------------------------------------------
// A-labels: Punycode of random Unicode labels.

/// Code points the U-label rules of RFC 5892 single out, and their
/// neighbours: joiners and viramas (including some jsonschema's virama
/// table leaves out), the middle dot and `l`, the Greek keraia and Greek,
/// Hebrew geresh and gershayim and Hebrew, the katakana middle dot and
/// Japanese, Arabic-Indic digits of both kinds, exceptions of every kind,
/// marks of each kind, uppercase, symbols, unassigned and private use.
const INTERESTING: &[char] = &[
    '\u{200C}',
    '\u{200D}',
    '\u{094D}',
    '\u{0915}',
    '\u{0DCA}',
    '\u{1BAB}',
    '\u{11070}',
    '\u{00B7}',
    'l',
    'L',
    '\u{0375}',
    '\u{03B1}',
    '\u{0370}',
    '\u{03FF}',
    '\u{0400}',
    '\u{1F00}',
    '\u{05D0}',
    '\u{05F3}',
    '\u{05F4}',
    '\u{05FF}',
    '\u{0600}',
    '\u{30FB}',
    '\u{30A2}',
    '\u{3040}',
    '\u{309B}',
    '\u{30A0}',
    '\u{4E00}',
    '\u{9FFF}',
    '\u{3400}',
    '\u{3005}',
    '\u{0660}',
    '\u{0669}',
    '\u{06F0}',
    '\u{06F9}',
    '\u{0640}',
    '\u{07FA}',
    '\u{302E}',
    '\u{3031}',
    '\u{303B}',
    '\u{3007}',
    '\u{06FD}',
    '\u{0F0B}',
    '\u{00DF}',
    '\u{03C2}',
    '\u{0300}',
    '\u{0903}',
    '\u{20DD}',
    '\u{00DC}',
    '\u{00FC}',
    '\u{01C5}',
    '\u{02B0}',
    '\u{2603}',
    '\u{0378}',
    '\u{E000}',
    '\u{FFFF}',
    '\u{10FFFF}',
    'a',
    'z',
    '0',
    '-',
];

fn unicode_label() -> impl Strategy<Value = Vec<char>> {
    let character = prop_oneof![
        6 => select(INTERESTING),
        2 => any::<char>(),
        1 => (0x80u32..0x3000).prop_filter_map("a scalar value", char::from_u32),
    ];
    vec(character, 1..6)
}

/// Host names with one or two A-labels made by encoding random Unicode,
/// now and then edited.
fn a_label_host_names() -> impl Strategy<Value = String> {
    let label = unicode_label()
        .prop_filter_map("encodes", |chars| {
            punycode_encode(&chars).map(|encoded| format!("xn--{encoded}"))
        })
        .boxed();
    let edits = vec(edit(alphabet(Format::Hostname)), 0..=1);
    (label.clone(), prop::option::of(label), any::<bool>(), edits).prop_map(
        |(first, second, suffix, edits): (String, Option<String>, bool, Vec<Edit>)| {
            let mut host = first;
            if let Some(second) = second {
                host = format!("{host}.{second}");
            }
            if suffix {
                host.push_str(".example");
            }
            apply(&host, &edits)
        },
    )
}

// RFC 3492 section 5.
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;

/// RFC 3492 section 6.1.
fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + 38)
}

fn encode_digit(digit: u32) -> char {
    let digit = u8::try_from(digit).unwrap();
    char::from(if digit < 26 {
        b'a' + digit
    } else {
        b'0' + digit - 26
    })
}

/// RFC 3492 section 6.3, encoding: the Punycode of `input` (without the
/// `xn--` prefix), or `None` on overflow.
fn punycode_encode(input: &[char]) -> Option<String> {
    let mut output: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = u32::try_from(output.len()).ok()?;
    if basic > 0 {
        output.push('-');
    }
    let total = u32::try_from(input.len()).ok()?;
    let (mut n, mut delta, mut bias, mut handled) = (0x80u32, 0u32, 72u32, basic);
    while handled < total {
        let m = input
            .iter()
            .map(|&c| u32::from(c))
            .filter(|&c| c >= n)
            .min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in input {
            let c = u32::from(c);
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        T_MIN
                    } else if k >= bias + T_MAX {
                        T_MAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    output.push(encode_digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                output.push(encode_digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta += 1;
        n += 1;
    }
    Some(output)
}

#[test]
fn punycode_encoder_matches_rfc3492_samples() {
    // RFC 3492 section 7.1 (B) and (L); `bücher`.
    let chinese: Vec<char> =
        "\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}"
            .chars()
            .collect();
    assert_eq!(
        punycode_encode(&chinese).as_deref(),
        Some("ihqwcrb4cv8a8dqg056pqjye")
    );
    let mixed: Vec<char> = "3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}"
        .chars()
        .collect();
    assert_eq!(
        punycode_encode(&mixed).as_deref(),
        Some("3B-ww4c5e180e575a65lsy2b")
    );
    let bucher: Vec<char> = "bücher".chars().collect();
    assert_eq!(punycode_encode(&bucher).as_deref(), Some("bcher-kva"));
}

// ---------------------------------------------------------------------------
// The property runs.

/// Runs [`CASES`] generated strings of `format` through both checks.
fn near_valid_strings_agree(format: Format) {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    };
    let (valid, invalid) = (Cell::new(0u32), Cell::new(0u32));
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&near_valid(format), |text| {
        let counter = if agree(format, &text).map_err(TestCaseError::fail)? {
            &valid
        } else {
            &invalid
        };
        counter.set(counter.get() + 1);
        Ok(())
    });
    if let Err(error) = outcome {
        panic!("{error}");
    }
    // Shrinking may run the closure more than CASES times; only a passing
    // run gets here, with exactly CASES cases counted.
    let (valid, invalid) = (valid.get(), invalid.get());
    assert!(
        valid >= CASES / 10,
        "{}: only {valid} of {CASES} valid",
        format.name()
    );
    assert!(
        invalid >= CASES / 10,
        "{}: only {invalid} of {CASES} invalid",
        format.name()
    );
}

#[test]
fn date_time_agrees() {
    near_valid_strings_agree(Format::DateTime);
}

#[test]
fn date_agrees() {
    near_valid_strings_agree(Format::Date);
}

#[test]
fn time_agrees() {
    near_valid_strings_agree(Format::Time);
}

#[test]
fn duration_agrees() {
    near_valid_strings_agree(Format::Duration);
}

#[test]
fn email_agrees() {
    near_valid_strings_agree(Format::Email);
}

#[test]
fn hostname_agrees() {
    near_valid_strings_agree(Format::Hostname);
}

#[test]
fn ipv4_agrees() {
    near_valid_strings_agree(Format::Ipv4);
}

#[test]
fn ipv6_agrees() {
    near_valid_strings_agree(Format::Ipv6);
}

#[test]
fn uuid_agrees() {
    near_valid_strings_agree(Format::Uuid);
}

#[test]
fn uri_agrees() {
    near_valid_strings_agree(Format::Uri);
}
