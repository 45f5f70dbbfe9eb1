#!/usr/bin/env python3
"""How many real function-parameter schemas `#[derive(ToolParams)]` states
exactly: the 1,853 BFCL tools of tool-core/benches/data/search_eval
(optionally every BFCL function occurrence, duplicates included), before
and after this round's two additions to `#[param(default = ..)]`:

  3523742  a string literal default on a type that does not convert from
           &str (a unit enum) is the JSON string its parse reads
           (`default = "celsius"`);
  cd77eca  a default written as the model's JSON: `default = {"days": 3}`
           (braces opening with a string key) and `default = [1, 2]`
           (brackets that are JSON whole), read by the type's parse.

Both change how a default is written, not which schemas exist, so the
script counts two things, each before and after:

  A, "expressible": some derived Rust type, with any attribute values
     (a default may be any Rust expression of the field's type:
     `Unit::Celsius`, `vec![..]`, `Window { days: 3 }`), writes the
     schema. Before and after are the same by construction: an
     expression of the type was always accepted.
  B, "transcribed": the same, but every default is written as the schema
     writes it, `default = <the JSON>`, or as bare `default` where the
     type's `Default` is that value (null on `Option`, [] on `Vec`, {} on
     a map or on a struct of optional fields (`#[derive(Default)]`), "",
     0, false); no Rust value is constructed. The field's type is the
     natural one: a string enum is a unit enum (`String` + `one_of`
     would have taken `default = "x"` before too), an object with
     properties a struct, a list a `Vec`.

What "exactly" means. Taken byte for byte no corpus schema is written,
since every derived struct says `"additionalProperties": false` (parse
drops undeclared keys unless `deny_unknown_fields`) and every integer
type its range (`i64`: +-2^63). Those two, `"items": {}` for an array
without `items` (`Vec<serde_json::Value>`), `"type": "string"` added to a
type-less string enum, key order and `0` against `0.0` are not counted as
differences; anything else is.

The rules, from tool-core/src/docs/derive.md (the reference of every
attribute and field type), checked with a probe crate against this tree
and against 3523742^:

  type string   String; enum of strings: a unit enum (`rename` per
                variant) or `one_of`; minLength/maxLength: min_length /
                max_length; pattern: pattern (all counted as statable);
                format: only date-time, date, time, duration, email,
                hostname, ipv4, ipv6, uuid, uri.
  type integer  i64 (its range written, see above); enum of integers:
                one_of; minimum/maximum: min/max.
  type number   f64; enum of numbers: one_of; minimum/maximum: min/max.
                exclusiveMinimum/exclusiveMaximum/multipleOf: no key.
  type boolean  bool; an enum on it: no (one_of takes numbers or strings).
  type array    Vec<T> with T statable; minItems/maxItems: min_length /
                max_length; uniqueItems: a set; constraints on items:
                items(..) or a newtype item. No items: Vec<Value>. An
                enum on the array itself (not its items): no.
  type object   with properties: a nested derived struct (a property not
                in `required` is an Option<T> or has a default; names by
                `rename`); without properties: serde_json::Map (or a map,
                with an additionalProperties schema); a `required` name
                that is not a property: no.
  no type       serde_json::Value, `{}` (BFCL's `any` becomes this).
  description   anywhere a field, an item (`items(description)`), a
                struct or a variant is: yes.
  default       on a property not in `required` only (a defaulted field
                is not required, so a default on a required property is
                not stated, before or after); it must be a value of the
                property's type that passes its enum and bounds (the
                derive checks it and panics otherwise); null on an
                Option<T> (`"default": null`). No default on an array's
                items (a newtype's value takes no `default`) nor on the
                parameters object itself.
  type list     (["string", "null"]): no; an Option field writes T alone.
  anyOf, oneOf  the derive writes them only in its own enum shapes
                (tagged: `const` tags; untagged: closed objects): not
                judged statable here (the corpus has none).
  $ref, allOf, not, if/then/else, dependencies, patternProperties,
  const, title, exclusive*, multipleOf, and BFCL's own `optional`
                no attribute writes them: not statable.

BFCL's Python and Java type names (dict, float, tuple, list, any,
HashMap, ...) are made JSON Schema's as BFCL maps them for OpenAI, by
build.py's `to_json_schema` (dict/HashMap -> object, float/double ->
number, list/tuple/ArrayList -> array, any -> no type, an unknown name ->
string); tools.jsonl holds them mapped already.

Usage:
  scripts/schema-corpus.py                   # the 1,853 tools of tools.jsonl
  scripts/schema-corpus.py --bfcl GIT_DIR    # also every function BFCL gives,
                                             # duplicates included (a clone of
                                             # ShishirPatil/gorilla; `git show` only)

Standard library only. A measurement for docs/schema-corpus.md, not a test.
"""

import argparse
import importlib.util
import json
import math
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tool-core/benches/data/search_eval"

FORMATS = {"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri"}
SCALAR_TYPES = {"string", "integer", "number", "boolean"}
KNOWN_TYPES = SCALAR_TYPES | {"array", "object"}
# Keywords a derived schema writes, by the kinds they apply to.
COMMON = {"type", "description", "enum", "default", "examples", "deprecated"}
BY_KIND = {
    "string": {"minLength", "maxLength", "pattern", "format"},
    "integer": {"minimum", "maximum"},
    "number": {"minimum", "maximum"},
    "boolean": set(),
    "array": {"items", "minItems", "maxItems", "uniqueItems"},
    "object": {"properties", "required", "additionalProperties"},
    "value": set(),
}


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_num(value):
    return (is_int(value) or isinstance(value, float)) and not (isinstance(value, float) and not math.isfinite(value))


def kind_of(schema):
    """The natural Rust kind of a schema: its JSON type, "value" when it
    has none, "object" when it has properties but no type."""
    t = schema.get("type")
    if t is None:
        if "properties" in schema:
            return "object"
        if "items" in schema:
            return "array"
        return "value"
    return t


class Checker:
    """Walks one tool's parameters; records why it is not statable (A) and
    how each default can be written (B)."""

    def __init__(self):
        self.reasons = []  # (reason) per occurrence: not statable at all
        self.b_before = []  # reasons a default cannot be transcribed before
        self.b_after = []  # ... after
        self.defaults = Counter()  # how each stated default is written

    def no(self, reason):
        self.reasons.append(reason)

    # ---- values: does a JSON value fit a schema, as the type's parse reads it?

    def fits(self, value, schema):
        """None if `value` is a value of the natural type of `schema` that
        its enum and bounds allow (a Rust value can be built whose JSON is
        `value`), else why not."""
        if not isinstance(schema, dict):
            return "schema is not an object"
        kind = kind_of(schema)
        if "enum" in schema and isinstance(schema["enum"], list):
            if not any(value == v and type(value) is type(v) or (is_num(value) and is_num(v) and value == v) for v in schema["enum"]):
                return "outside the enum"
        if kind == "value":
            return None
        if value is None:
            return f"null where {an(kind)} goes"
        if kind == "string":
            if not isinstance(value, str):
                return f"a {json_kind(value)} on a string"
            if "minLength" in schema and len(value) < schema["minLength"]:
                return "shorter than minLength"
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                return "longer than maxLength"
            return None
        if kind == "integer":
            if is_int(value) or (isinstance(value, float) and value.is_integer()):
                return self.bounds(value, schema)
            return f"a {json_kind(value)} on an integer"
        if kind == "number":
            if is_num(value):
                return self.bounds(value, schema)
            return f"a {json_kind(value)} on a number"
        if kind == "boolean":
            return None if isinstance(value, bool) else f"a {json_kind(value)} on a boolean"
        if kind == "array":
            if not isinstance(value, list):
                return f"a {json_kind(value)} on an array"
            items = schema.get("items")
            if isinstance(items, dict):
                for item in value:
                    why = self.fits(item, items)
                    if why:
                        return f"item: {why}"
            return None
        if kind == "object":
            if not isinstance(value, dict):
                return f"a {json_kind(value)} on an object"
            props = schema.get("properties")
            if props:
                for key, item in value.items():
                    if key not in props:
                        return f"key {key!r} is no property"
                    why = self.fits(item, props[key])
                    if why:
                        return f"{key}: {why}"
                for name in schema.get("required") or []:
                    if name not in value:
                        return f"required {name!r} missing"
                return None
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                for key, item in value.items():
                    why = self.fits(item, extra)
                    if why:
                        return f"{key}: {why}"
            return None
        return f"type {kind!r}"

    @staticmethod
    def bounds(value, schema):
        if "minimum" in schema and is_num(schema["minimum"]) and value < schema["minimum"]:
            return "below minimum"
        if "maximum" in schema and is_num(schema["maximum"]) and value > schema["maximum"]:
            return "above maximum"
        return None

    def completed(self, value, schema):
        """`value` as the natural type's parse then its JSON writes it: an
        absent property with a (non-null) default of its own comes back
        filled in."""
        if isinstance(value, dict) and schema.get("properties"):
            out = {}
            for name, prop in schema["properties"].items():
                if name in value:
                    out[name] = self.completed(value[name], prop)
                elif isinstance(prop, dict) and prop.get("default") is not None:
                    out[name] = prop["default"]
            return out
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            return [self.completed(item, schema["items"]) for item in value]
        return value

    # ---- defaults: how one stated default can be written

    def default(self, value, schema, optional):
        """A `default` on a property: statable (A) or not; then the forms
        that write it without building a Rust value (B)."""
        if not optional:
            self.no("default on a required parameter")
            return
        kind = kind_of(schema)
        if value is not None:
            why = self.fits(value, schema)
            if why:
                self.no(f"default not a value of the type: {default_why(why)}")
                return
        string_enum = kind == "string" and "enum" in schema
        # Bare `default`: the type's Default is the value.
        bare = (
            value is None
            or (kind == "string" and not string_enum and value == "")
            or (kind in ("integer", "number") and "enum" not in schema and is_num(value) and value == 0)
            or (kind == "boolean" and value is False)
            or (kind == "array" and value == [])
            or (kind == "object" and value == {} and not (schema.get("properties") and schema.get("required")))
        )
        if bare:
            self.defaults["bare `default` (null, [], {}, \"\", 0, false)"] += 1
            return
        # `default = <JSON>` before this round: a Rust literal of the type.
        if kind == "string" and not string_enum:
            self.defaults["string literal on a String"] += 1
            return
        if kind == "value" and isinstance(value, str):
            self.defaults["string literal on a Value"] += 1
            return
        if kind == "integer" and is_int(value):
            self.defaults["integer literal"] += 1
            return
        if kind == "number" and isinstance(value, float):
            self.defaults["float literal"] += 1
            return
        if kind == "boolean":
            self.defaults["boolean literal"] += 1
            return
        # After this round: a string on a unit enum, JSON `[..]` and `{"k": ..}`.
        if string_enum:
            form, after = "string literal on a unit enum", True
        elif isinstance(value, list):
            form, after = "JSON array", True
        elif isinstance(value, dict):
            if self.completed(value, schema) != value:
                form, after = "JSON object its type's parse completes with defaults", False
            else:
                form, after = "JSON object", True
        elif kind == "number" and is_int(value):
            form, after = "integer literal on a number (Rust wants 1.0)", False
        elif kind == "value":
            form, after = f"{json_kind(value)} literal on a Value", False
        else:
            form, after = f"{json_kind(value)} on {kind}", False
        self.defaults[form] += 1
        self.b_before.append(form)
        if not after:
            self.b_after.append(form)

    # ---- schemas

    def node(self, schema, where, optional=True, is_item=False, is_root=False):
        """A property's (or an item's, or the root's) schema."""
        if not isinstance(schema, dict):
            self.no("schema that is not an object")
            return
        t = schema.get("type")
        if isinstance(t, list):
            self.no("type given as a list")
            return
        if t is not None and t not in KNOWN_TYPES:
            self.no(f"type {t!r}")
            return
        kind = kind_of(schema)
        allowed = COMMON | BY_KIND.get(kind, set())
        for key in schema:
            if key not in allowed:
                if key in ("minimum", "maximum", "minLength", "maxLength", "pattern", "format",
                           "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
                           "additionalProperties"):
                    self.no(f"`{key}` on {an(kind)}")
                elif key == "optional":
                    self.no("BFCL's non-standard keyword `optional`")
                else:
                    self.no(f"keyword `{key}`")
        if "format" in schema and kind == "string" and schema["format"] not in FORMATS:
            self.no(f"format {schema['format']!r}")
        if "enum" in schema:
            self.enum(schema["enum"], kind)
        if kind == "array":
            items = schema.get("items")
            if isinstance(items, dict):
                self.node(items, where + "[]", is_item=True)
            elif items is not None:
                self.no("`items` that is not one schema")
        if kind == "object":
            props = schema.get("properties")
            required = schema.get("required") or []
            if props is not None and not isinstance(props, dict):
                self.no("`properties` that is not an object")
                props = None
            for name in required if isinstance(required, list) else []:
                if name not in (props or {}):
                    self.no("a required name that is no property")
            for name, prop in (props or {}).items():
                self.node(prop, f"{where}.{name}", optional=name not in required)
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                if props:
                    self.no("additionalProperties schema beside properties")
                else:
                    self.node(extra, where + "{}", is_item=True)
        if "default" in schema:
            if is_root:
                self.no("default on the parameters object")
            elif is_item:
                self.no("default on an array's items")
            else:
                self.default(schema["default"], schema, optional)

    def enum(self, values, kind):
        if not isinstance(values, list) or not values:
            self.no("empty or malformed enum")
            return
        kinds = {json_kind(v) for v in values}
        if len({json.dumps(v, sort_keys=True) for v in values}) != len(values):
            self.no("enum listing a value twice")
        if kind in ("string", "value") and kinds == {"string"}:
            return
        if kind == "integer" and all(is_int(v) for v in values):
            return
        if kind in ("number", "value") and all(is_num(v) for v in values):
            return
        if len(kinds) > 1:
            self.no("enum of mixed kinds")
        elif kind in ("boolean", "array", "object"):
            self.no(f"enum on {an(kind)} (of {'/'.join(sorted(kinds))}s)")
        else:
            self.no(f"enum of {'/'.join(sorted(kinds))}s on {an(kind)}")


def an(kind):
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def json_kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if is_int(value):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def has_default(schema):
    if isinstance(schema, dict):
        return "default" in schema or any(has_default(v) for v in schema.values())
    if isinstance(schema, list):
        return any(has_default(v) for v in schema)
    return False


def default_why(why):
    return why.split(": ")[-1]


def contradicts_itself(reason):
    """A schema whose default or enum is no value of its own type: the
    derive refuses it by design (a compile error, or a panic when the
    schema is built)."""
    return reason.startswith(("default not a value", "enum of", "enum on"))


def check(parameters):
    checker = Checker()
    checker.node(parameters, "", is_root=True)
    return checker


def measure(schemas):
    """Counts over a list of parameter schemas."""
    n = len(schemas)
    a = b_before = b_before_one_of = b_after = with_default = self_contradicting = 0
    reasons, only = Counter(), Counter()
    b_reasons_before, b_reasons_after = Counter(), Counter()
    forms = Counter()
    occurrences = Counter()
    for parameters in schemas:
        c = check(parameters)
        forms.update(c.defaults)
        with_default += has_default(parameters)
        occurrences.update(c.reasons)
        distinct = set(c.reasons)
        reasons.update(distinct)
        if len(distinct) == 1:
            only.update(distinct)
        if distinct and all(contradicts_itself(r) for r in distinct):
            self_contradicting += 1
        if not distinct:
            a += 1
            if not c.b_before:
                b_before += 1
            if not [form for form in c.b_before if form != "string literal on a unit enum"]:
                b_before_one_of += 1
            if c.b_before:
                b_reasons_before.update(set(c.b_before))
            if not c.b_after:
                b_after += 1
            else:
                b_reasons_after.update(set(c.b_after))
    return {
        "n": n,
        "a": a,
        "b_before": b_before,
        "b_before_one_of": b_before_one_of,
        "b_after": b_after,
        "with_default": with_default,
        "self_contradicting": self_contradicting,
        "reasons": reasons,
        "only": only,
        "occurrences": occurrences,
        "b_reasons_before": b_reasons_before,
        "b_reasons_after": b_reasons_after,
        "forms": forms,
    }


def share(count, n):
    return f"{count:,} ({100.0 * count / n:.1f}%)"


def report(title, m):
    n = m["n"]
    print(f"## {title}: {n:,} parameter schemas, {m['with_default']:,} with a default\n")
    print("| definition | before | after |")
    print("| --- | ---: | ---: |")
    print(f"| A, expressible (any Rust default) | {share(m['a'], n)} | {share(m['a'], n)} |")
    print(f"| B, transcribed (defaults as the schema writes them) | {share(m['b_before'], n)} | {share(m['b_after'], n)} |")
    print(f"| B with string enums as `String` + `one_of`, not unit enums | {share(m['b_before_one_of'], n)} | {share(m['b_after'], n)} |")
    print()
    not_a = n - m["a"]
    print(
        f"Not statable at all (A): {not_a:,} schemas; {m['self_contradicting']:,} of them only because a default "
        f"or an enum is no value of the property's own type (which the derive refuses by design), "
        f"{not_a - m['self_contradicting']:,} for a construct no attribute writes.\n"
    )
    print("By construct: schemas with it, schemas with it alone, occurrences\n")
    print("| construct | schemas | only reason | occurrences |")
    print("| --- | ---: | ---: | ---: |")
    for reason, count in m["reasons"].most_common():
        print(f"| {reason} | {count:,} | {m['only'][reason]:,} | {m['occurrences'][reason]:,} |")
    print()
    print("Statable (A) but a default not transcribable (B): schemas, before / after\n")
    print("| default | before | after |")
    print("| --- | ---: | ---: |")
    keys = sorted(set(m["b_reasons_before"]) | set(m["b_reasons_after"]), key=lambda k: -m["b_reasons_before"][k])
    for key in keys:
        print(f"| {key} | {m['b_reasons_before'][key]:,} | {m['b_reasons_after'][key]:,} |")
    print()
    print("Every stated default (on an optional parameter, a value of its type), by how it is written\n")
    print("| form | defaults | B before | B after |")
    print("| --- | ---: | :---: | :---: |")
    for form, count in m["forms"].most_common():
        before = "yes" if form in BEFORE_FORMS else "no"
        after = "yes" if form in BEFORE_FORMS or form in AFTER_ONLY else "no"
        print(f"| {form} | {count:,} | {before} | {after} |")
    print()


AFTER_ONLY = {"string literal on a unit enum", "JSON array", "JSON object"}
BEFORE_FORMS = {
    "bare `default` (null, [], {}, \"\", 0, false)",
    "string literal on a String",
    "string literal on a Value",
    "integer literal",
    "float literal",
    "boolean literal",
}


def load_build():
    spec = importlib.util.spec_from_file_location("search_eval_build", DATA / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bfcl", metavar="GIT_DIR", help="a clone of ShishirPatil/gorilla: also every function BFCL gives, duplicates included")
    parser.add_argument("--commit", help="the BFCL commit (default: build.py's)")
    args = parser.parse_args()

    tools = [json.loads(line) for line in (DATA / "tools.jsonl").open(encoding="utf-8") if line.strip()]
    print("# What #[derive(ToolParams)] states of BFCL's function schemas\n")
    report("tools.jsonl (one tool per name)", measure([tool["parameters"] for tool in tools]))

    if args.bfcl:
        build = load_build()
        commit = args.commit or build.COMMIT
        schemas = []
        for category in build.CATEGORIES + build.DISTRACTORS:
            for entry in build.git_show(args.bfcl, commit, f"{build.DATA}/BFCL_v4_{category}.json"):
                for function in entry["function"]:
                    schemas.append(build.to_json_schema(function["parameters"]))
        report(f"BFCL at {commit[:12]}, every function given with a request (duplicates kept)", measure(schemas))


if __name__ == "__main__":
    sys.exit(main())
