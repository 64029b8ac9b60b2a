"""Discord's published OpenAPI 3.1 document (``openapi.json`` beside this file), checked
with ``jsonschema`` (Draft 2020-12, ``$ref`` resolved by ``referencing`` against the whole
document).

The document is read once, on first use. Per operation, its request body schema is compiled
once into Python closures (:func:`_checker`, the fast verdict every body gets) and a
``jsonschema`` validator is kept for the bodies refused (it says where and why). Both read
the spec with three departures, each where Discord's documentation says the service takes
more than the schema describes (so the checks never refuse what Discord takes):

* ``SnowflakeType`` also takes a non-negative integer below 2**64: ids sent as numbers are
  read as ids (docs: reference.mdx › ID Serialization); discord.py sends some that way;
* ``default_member_permissions`` of commands also takes a string of digits, which is the
  type the documentation gives it (docs: interactions/application-commands.mdx ›
  Application Command Structure);
* ``oneOf`` / ``anyOf`` pass when any branch passes (the spec's unions describe alternatives,
  some of which overlap), and when none does, report the errors of the branch meant: the one
  whose ``type`` constant is the item's ``type`` for component, option and callback unions,
  the non-null one for nullable fields, else the branch that fails least.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, cast

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from .violations import Path, Violation

SPEC_URI = "urn:discord-api-spec:74fda0f"
MAX_SNOWFLAKE = 2**64 - 1

_METHODS = ("get", "put", "post", "patch", "delete")


# ------------------------------------------------------------------ the document


@cache
def document() -> dict[str, Any]:
    """The spec, with the changes listed in the module docstring and each subschema
    labelled with where it sits (``x-where``, for :class:`Violation.rule`)."""
    text = resources.files("discordspec").joinpath("openapi.json").read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    schemas: dict[str, Any] = doc["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    snowflake["type"] = ["string", "integer"]
    snowflake["minimum"] = 0
    snowflake["maximum"] = MAX_SNOWFLAKE
    for name in (
        "ApplicationCommandCreateRequest",
        "ApplicationCommandUpdateRequest",
        "ApplicationCommandPatchRequestPartial",
    ):
        perms = schemas[name]["properties"]["default_member_permissions"]
        perms["type"] = [*perms["type"], "string"]
        perms["pattern"] = "^[0-9]+$"
    for name, schema in schemas.items():
        _label(schema, name, schemas)
    for template, item in doc["paths"].items():
        for method in _METHODS:
            op = item.get(method)
            if isinstance(op, dict) and "requestBody" in op:
                for media in op["requestBody"]["content"].values():
                    _label(media["schema"], f"{method.upper()} {template}", schemas)
    return doc


@dataclass(frozen=True)
class _Union:
    """How a ``oneOf`` / ``anyOf`` list is checked (worked out once, when labelling)."""

    null: bool  # one branch is ``{"type": "null"}``
    consts: frozenset[object] | None  # every other branch is a bare ``const``
    by_type: dict[object, int] | None  # ``type`` constant of an object branch -> branch


def _label(node: Any, where: str, schemas: dict[str, Any]) -> None:
    if isinstance(node, list):
        for item in node:
            _label(item, where, schemas)
        return
    if not isinstance(node, dict) or "x-where" in node:
        return
    if set(node) != {"$ref"}:
        node["x-where"] = where
    for key in ("oneOf", "anyOf"):
        if isinstance(node.get(key), list):
            node[f"x-{key}"] = _plan(node[key], schemas)
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            for prop, sub in value.items():
                _label(sub, f"{where}.{prop}", schemas)
        elif key in ("items", "additionalProperties", "oneOf", "anyOf", "allOf"):
            _label(value, where, schemas)


def _resolve(branch: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    ref = branch.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        target = schemas.get(ref.rsplit("/", 1)[1])
        if isinstance(target, dict):
            return target
    return branch


def _plan(branches: list[Any], schemas: dict[str, Any]) -> _Union:
    null = False
    consts: set[object] = set()
    by_type: dict[object, int] = {}
    others = 0
    for i, raw in enumerate(branches):
        b = _resolve(raw, schemas) if isinstance(raw, dict) else {}
        if b.get("type") == "null" and len(b) <= 2:  # {"type": "null"} (+ x-where)
            null = True
            continue
        others += 1
        if "const" in b:
            consts.add(b["const"])
            continue
        t = (b.get("properties") or {}).get("type")
        values = t.get("enum") if isinstance(t, dict) else None
        if isinstance(t, dict) and "const" in t:
            values = [t["const"]]
        if isinstance(values, list):
            for v in values:
                by_type[v] = -1 if v in by_type else i  # -1: two branches claim it
    return _Union(
        null,
        frozenset(consts) if consts and len(consts) == others else None,
        by_type if by_type and -1 not in by_type.values() else None,
    )


# ------------------------------------------------------------------ routes


@dataclass(frozen=True)
class Route:
    method: str  # "POST"
    template: str  # "/channels/{channel_id}/messages"


@cache
def _routes() -> dict[str, list[tuple[re.Pattern[str], str]]]:
    """Per method, the path templates that have a request body, literal segments first
    (``/messages/@original`` before ``/messages/{message_id}``)."""
    out: dict[str, list[tuple[int, re.Pattern[str], str]]] = {}
    for template, item in document()["paths"].items():
        segments = template.strip("/").split("/")
        literal = sum(1 for s in segments if not s.startswith("{"))
        parts = ["[^/]+" if s.startswith("{") else re.escape(s) for s in segments]
        pattern = re.compile("/" + "/".join(parts))
        for method in _METHODS:
            if method in item:
                out.setdefault(method.upper(), []).append((-literal, pattern, template))
    return {m: [(p, t) for _, p, t in sorted(v, key=lambda x: x[0])] for m, v in out.items()}


def match(method: str, path: str) -> Route | None:
    """The operation a request goes to (``path`` as sent after ``/api/v10``)."""
    path = path.split("?", 1)[0].rstrip("/") or "/"
    for pattern, template in _routes().get(method.upper(), []):
        if pattern.fullmatch(path):
            return Route(method.upper(), template)
    return None


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


@cache
def _validator(method: str, template: str) -> Validator | None:
    op = document()["paths"][template].get(method.lower()) or {}
    content = (op.get("requestBody") or {}).get("content") or {}
    for media in ("application/json", "multipart/form-data"):
        if media in content:
            ref = (
                SPEC_URI
                + "#"
                + _pointer(
                    "paths", template, method.lower(), "requestBody", "content", media, "schema"
                )
            )
            return cast(Validator, _SpecValidator({"$ref": ref}, registry=_registry()))
    return None


@cache
def _registry() -> Registry[Any]:
    resource = DRAFT202012.create_resource(document())
    return cast(Registry[Any], Registry().with_resource(SPEC_URI, resource))


def has_body_schema(route: Route) -> bool:
    return _validator(route.method, route.template) is not None


def schema_violations(route: Route, body: object) -> list[Violation]:
    """What the spec's request body schema of ``route`` says about ``body``.

    A body passes through the compiled check first (:func:`_checker`); only a body it
    refuses is walked by ``jsonschema``, which says where and why."""
    validator = _validator(route.method, route.template)
    if validator is None or _checker(route.method, route.template)(body):
        return []
    return [_violation(e) for e in validator.iter_errors(body)]


# ------------------------------------------------------------------ the compiled check

Check = Callable[[object], bool]


@cache
def _checker(method: str, template: str) -> Check:
    """The request body schema of an operation as nested Python closures: the same verdict
    as :data:`_SpecValidator` (the tests compare them), about 50 times faster. ``jsonschema``
    walks a message body in about 5 ms, creating a validator per step; the bench sends every
    request of 200 tables through here."""
    op = document()["paths"][template][method.lower()]
    content = op["requestBody"]["content"]
    media = "application/json" if "application/json" in content else "multipart/form-data"
    return _Compiler(document()["components"]["schemas"]).compile(content[media]["schema"])


def _is_integer(x: object) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _type_check(names: list[str]) -> Check:
    """``type`` with one or more names (``jsonschema``'s type checker: a bool is not a
    number, an integral float is an integer)."""
    plain: tuple[type, ...] = tuple(
        c for n, c in (("string", str), ("array", list), ("object", dict)) if n in names
    )
    none = "null" in names
    boolean = "boolean" in names
    number = "number" in names
    integer = number or "integer" in names

    def check(x: object) -> bool:
        if isinstance(x, plain):
            return True
        if x is None:
            return none
        if isinstance(x, bool):
            return boolean
        if isinstance(x, int):
            return integer
        if isinstance(x, float):
            return number or (integer and x.is_integer())
        return False

    return check


_TYPES: dict[str, Check] = {
    "null": lambda x: x is None,
    "boolean": lambda x: isinstance(x, bool),
    "integer": _is_integer,
    "number": _is_number,
    "string": lambda x: isinstance(x, str),
    "array": lambda x: isinstance(x, list),
    "object": lambda x: isinstance(x, dict),
}


def _json_equal(a: object, b: object) -> bool:
    """JSON Schema equality (``jsonschema._utils.equal``): ``True`` is not ``1``, ``1`` is
    ``1.0``, containers compared item by item."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list | dict) or isinstance(b, list | dict):
        return False
    return a == b


def _member_check(values: Iterable[object]) -> Check:
    """``x`` is one of ``values`` (strings and integers), by JSON equality (an integral
    float is its integer, a bool is not)."""
    keys = {(type(v), v) for v in values}

    def member(x: object) -> bool:
        if isinstance(x, bool):
            return (bool, x) in keys
        if isinstance(x, float) and x.is_integer():
            return (int, int(x)) in keys
        if isinstance(x, str | int | float):
            return (type(x), x) in keys
        return False

    return member


def _unique(items: list[Any]) -> bool:
    return all(not _json_equal(x, y) for i, x in enumerate(items) for y in items[i + 1 :])


class _Compiler:
    """Turns a schema of the spec into a :data:`Check`, one closure per keyword. Only the
    keywords the spec uses are known; an unknown one raises, so a newer spec cannot be
    checked more loosely than ``jsonschema`` checks it without anyone noticing."""

    ANNOTATIONS = frozenset(
        {"description", "title", "format", "contentEncoding", "x-discord-union", "x-where"}
    )

    def __init__(self, schemas: dict[str, Any]) -> None:
        self.schemas = schemas
        self.refs: dict[str, Check] = {}

    def ref(self, ref: str) -> Check:
        name = ref.rsplit("/", 1)[1]
        if name not in self.refs:
            slot: list[Check] = []
            self.refs[name] = lambda x: slot[0](x)  # a recursive schema reaches itself
            slot.append(self.compile(self.schemas[name]))
        return self.refs[name]

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return lambda x: True
        if not isinstance(schema, dict):
            raise ValueError(f"not a schema: {schema!r}")
        checks = [
            self.keyword(key, value, schema)
            for key, value in schema.items()
            if key not in self.ANNOTATIONS and key not in ("x-oneOf", "x-anyOf")
        ]
        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]
        if len(checks) == 2:
            first, second = checks
            return lambda x: first(x) and second(x)

        def every(x: object) -> bool:  # a loop: cheaper than all() over a generator
            for c in checks:  # noqa: SIM110
                if not c(x):
                    return False
            return True

        return every

    def keyword(self, key: str, value: Any, schema: dict[str, Any]) -> Check:
        if key == "$ref":
            return self.ref(value)
        if key in ("oneOf", "anyOf"):
            return self.union(value, schema[f"x-{key}"])
        if key == "type":
            return _type_check([value] if isinstance(value, str) else list(value))
        if key == "properties":
            props = {k: self.compile(v) for k, v in value.items()}

            def properties(x: object) -> bool:
                if isinstance(x, dict):
                    for k, v in x.items():
                        c = props.get(k)
                        if c is not None and not c(v):
                            return False
                return True

            return properties
        if key == "required":
            names = tuple(value)
            return lambda x: not isinstance(x, dict) or all(k in x for k in names)
        if key == "additionalProperties":
            known = frozenset(schema.get("properties") or ())
            if value is False:
                return lambda x: not isinstance(x, dict) or known.issuperset(x)
            extra = self.compile(value)
            return lambda x: (
                not isinstance(x, dict) or all(extra(v) for k, v in x.items() if k not in known)
            )
        if key == "items":
            item = self.compile(value)

            def items(x: object) -> bool:
                if isinstance(x, list):
                    for v in x:
                        if not item(v):
                            return False
                return True

            return items
        kinds: dict[str, type[Sized]] = {"Length": str, "Items": list, "Properties": dict}
        kind = kinds.get(key[3:])
        if kind is None or key[:3] not in ("max", "min"):
            return self.value_keyword(key, value)
        if key.startswith("max"):
            return lambda x: not isinstance(x, kind) or len(x) <= value
        return lambda x: not isinstance(x, kind) or len(x) >= value

    def value_keyword(self, key: str, value: Any) -> Check:
        if key == "maximum":
            return lambda x: not _is_number(x) or cast(float, x) <= value
        if key == "minimum":
            return lambda x: not _is_number(x) or cast(float, x) >= value
        if key == "uniqueItems":
            return lambda x: not value or not isinstance(x, list) or _unique(x)
        if key == "pattern":
            regex = re.compile(value)
            return lambda x: not isinstance(x, str) or regex.search(x) is not None
        if key == "const":
            return lambda x: _json_equal(x, value)
        if key == "enum":
            if all(isinstance(v, str | int) and not isinstance(v, bool) for v in value):
                return _member_check(value)
            return lambda x: any(_json_equal(x, v) for v in value)
        if key == "allOf":
            parts = [self.compile(v) for v in value]
            return lambda x: all(p(x) for p in parts)
        raise ValueError(f"keyword {key!r} is not known to the compiled check")

    def union(self, branches: list[Any], plan: _Union) -> Check:
        """The same decision as :func:`_union`: any branch passing passes."""
        if plan.consts is not None:
            member = _member_check(plan.consts)
            null = plan.null
            return lambda x: (x is None and null) or (x is not None and member(x))
        parts = [self.compile(b) for b in branches]
        if plan.by_type is not None:
            by_type = [(v, parts[i]) for v, i in plan.by_type.items()]
            null = plan.null
            generic = parts

            def typed(x: object) -> bool:
                if x is None and null:
                    return True
                if isinstance(x, dict):
                    t = x.get("type")
                    for v, part in by_type:
                        if _json_equal(t, v):
                            return part(x)
                    return False
                return any(p(x) for p in generic)

            return typed
        null = plan.null
        return lambda x: (x is None and null) or any(p(x) for p in parts)


# ------------------------------------------------------------------ keywords


def _union(keyword: str) -> Any:
    plan_key = f"x-{keyword}"

    def check(
        validator: Any, branches: list[Any], instance: object, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        plan = schema.get(plan_key)
        if not isinstance(plan, _Union):
            plan = _Union(False, None, None)
        if instance is None and plan.null:
            return
        if plan.consts is not None and instance is not None:
            if any(_json_equal(instance, c) for c in plan.consts):
                return
            if "type" in schema and not any(type(c) is type(instance) for c in plan.consts):
                return  # a value of the wrong kind: the "type" beside says so
            yield ValidationError(
                "not a listed value", validator="x-choices", validator_value=plan.consts
            )
            return
        if plan.by_type is not None and isinstance(instance, dict):
            t = instance.get("type")
            i = next((i for v, i in plan.by_type.items() if _json_equal(t, v)), None)
            if i is not None:
                yield from validator.descend(instance, branches[i], schema_path=i)
            elif "type" not in instance:
                yield ValidationError("'type' is required", validator="required", path=["type"])
            elif not any(
                _TYPES["string" if isinstance(v, str) else "number"](t) for v in plan.by_type
            ):
                kind = "integer" if all(type(v) is int for v in plan.by_type) else "string"
                yield ValidationError(
                    "wrong kind", validator="type", validator_value=kind, path=["type"], instance=t
                )
            else:
                yield ValidationError(
                    "unknown type",
                    validator="x-union-type",
                    validator_value=frozenset(plan.by_type),
                    path=["type"],
                    instance=t,
                )
            return
        best: list[ValidationError] | None = None
        best_rank = (2, 0)
        for i, branch in enumerate(branches):
            if plan.null and isinstance(branch, dict) and branch.get("type") == "null":
                continue
            errors = list(validator.descend(instance, branch, schema_path=i))
            if not errors:
                return
            wrong_kind = any(e.validator == "type" and not e.path for e in errors)
            rank = (1 if wrong_kind else 0, len(errors))
            if best is None or rank < best_rank:
                best, best_rank = errors, rank
        yield from best or [ValidationError("no branch", validator="type", validator_value="null")]

    return check


def _required(
    validator: Any, required: list[str], instance: object, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        return
    for prop in required:
        if prop not in instance:
            yield ValidationError(f"{prop!r} is required", path=[prop])


_SpecValidator = extend(
    Draft202012Validator,
    {"oneOf": _union("oneOf"), "anyOf": _union("anyOf"), "required": _required},
)


# ------------------------------------------------------------------ errors as Discord words them

_JSON_TYPE = {
    "integer": "int",
    "number": "number",
    "string": "string",
    "boolean": "boolean",
    "array": "array",
    "object": "object",
}


def _violation(e: ValidationError) -> Violation:
    path: Path = tuple(e.path)
    kw = str(e.validator)
    value: Any = e.validator_value
    schema: dict[str, Any] = e.schema if isinstance(e.schema, dict) else {}
    where = str(schema.get("x-where", "request body"))
    keyword = kw
    if kw.startswith("x-"):  # reported by this module's union check
        keyword = "oneOf" if "oneOf" in schema else "anyOf"
    rule = f"openapi: {where} / {keyword}"
    inst: Any = e.instance
    if kw in ("maxLength", "minLength", "maxItems", "minItems", "maxProperties"):
        lo_key, hi_key = (
            ("minLength", "maxLength") if kw.endswith("Length") else ("minItems", "maxItems")
        )
        if kw == "maxProperties":
            lo_key, hi_key = "minProperties", "maxProperties"
        lo, hi = schema.get(lo_key), schema.get(hi_key)
        if isinstance(lo, int) and isinstance(hi, int) and lo > 0:
            return Violation(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {lo} and {hi} in length.",
                rule,
                hi if kw.startswith("max") else lo,
            )
        if kw.startswith("max"):
            return Violation(
                path, "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length.", rule, value
            )
        return Violation(
            path, "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length.", rule, value
        )
    types = schema.get("type")
    kind = (
        "int" if types == "integer" or (isinstance(types, list) and "integer" in types) else "float"
    )
    if kw in ("maximum", "exclusiveMaximum"):
        return Violation(
            path,
            "NUMBER_TYPE_MAX",
            f"{kind} value should be less than or equal to {value}.",
            rule,
            value,
        )
    if kw in ("minimum", "exclusiveMinimum"):
        return Violation(
            path,
            "NUMBER_TYPE_MIN",
            f"{kind} value should be greater than or equal to {value}.",
            rule,
            value,
        )
    if kw == "required":
        return Violation(path, "BASE_TYPE_REQUIRED", "This field is required", rule)
    if kw == "type":
        return _type_violation(path, value, inst, rule)
    if kw in ("enum", "const", "x-choices", "x-union-type"):
        choices = value if kw != "const" else [value]
        ordered = sorted(choices, key=lambda c: (0, c, "") if _is_number(c) else (1, 0, str(c)))
        listed = ", ".join(json.dumps(c) for c in ordered)
        code = "UNION_TYPE_CHOICES" if kw == "x-union-type" else "BASE_TYPE_CHOICES"
        return Violation(path, code, f"Value must be one of ({listed}).", rule)
    if kw == "pattern":
        if schema.get("format") == "snowflake":
            return Violation(path, "NUMBER_TYPE_COERCE", f'Value "{inst}" is not snowflake.', rule)
        return Violation(
            path, "STRING_TYPE_REGEX", "String value did not match validation regex.", rule
        )
    if kw == "uniqueItems":
        return Violation(path, "BASE_TYPE_DUPLICATES", "Items must be unique.", rule)
    if kw == "additionalProperties" and value is False:
        return Violation(path, "UNKNOWN_FIELD", "Unknown field.", rule)
    return Violation(path, "BASE_TYPE_INVALID", e.message, rule)


def _type_violation(path: Path, expected: Any, inst: Any, rule: str) -> Violation:
    wanted = [expected] if isinstance(expected, str) else list(expected)
    wanted = [w for w in wanted if w != "null"] or ["null"]
    if inst is None:
        if path and isinstance(path[-1], int):
            return Violation(
                path, "LIST_ITEM_VALUE_REQUIRED", "List item values of ModelType are required", rule
            )
        return Violation(path, "BASE_TYPE_REQUIRED", "This field is required", rule)
    main = wanted[0]
    shown = json.dumps(inst)[:100] if not isinstance(inst, str) else inst[:100]
    if main in ("integer", "number"):
        return Violation(
            path, "NUMBER_TYPE_COERCE", f'Value "{shown}" is not {_JSON_TYPE[main]}.', rule
        )
    if main == "boolean":
        return Violation(
            path, "BOOLEAN_TYPE_COERCE", f'Value "{shown}" is not a valid boolean.', rule
        )
    if main == "string":
        return Violation(path, "STRING_TYPE_CONVERT", f'Value "{shown}" is not a string.', rule)
    if main == "array":
        return Violation(path, "BASE_TYPE_BAD_TYPE", "Must be an array.", rule)
    if main == "object":
        return Violation(
            path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType", rule
        )
    return Violation(path, "BASE_TYPE_BAD_TYPE", f"Must be {main}.", rule)
