"""Just enough Velocity (VTL) to run this project's API Gateway mapping templates in a test.

It knows the statements our templates use (#set, #if/#elseif/#else/#end), the
``$input``/``$context`` references they read or write, and ``||``/``==``
conditions. Anything else raises, so a template that grows beyond this fails
loudly here rather than being half-understood.

Gateway response templates and the access log format are not VTL: API Gateway only
puts each ``$context`` variable's value in its place (:func:`substitute`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_SET = re.compile(r"^#set\(\$(?P<target>[A-Za-z][\w.-]*) = (?P<expr>.+)\)$")
_IF = re.compile(r"^#(?P<kind>if|elseif)\((?P<cond>.+)\)$")


@dataclass
class Request:
    """What the template can see: the integration's JSON body and the method's headers."""

    body: Mapping[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Rendered:
    body: str
    status_override: int | None
    header_overrides: dict[str, str]


def _path(body: Mapping[str, Any], path: str) -> Any:
    if not path.startswith("$."):
        raise ValueError(f"unsupported path {path!r}")
    value: Any = body
    for part in path[2:].split("."):
        value = value.get(part, "") if isinstance(value, Mapping) else ""
    return value


def _value(expr: str, request: Request, variables: dict[str, Any]) -> Any:
    expr = expr.strip()
    if m := re.fullmatch(r"\$input\.params\(\)\.header\.get\('([\w-]+)'\)", expr):
        return request.headers.get(m.group(1))
    if m := re.fullmatch(r"\$input\.path\('([^']+)'\)", expr):
        return _path(request.body, m.group(1))
    if m := re.fullmatch(r"\$(\w+)", expr):
        return variables.get(m.group(1))
    if re.fullmatch(r"\d+", expr):
        return int(expr)
    if m := re.fullmatch(r"\"([^\"$]*)\"|'([^'$]*)'", expr):
        return m.group(1) if m.group(1) is not None else m.group(2)
    if m := re.fullmatch(r"\"\$!(\w+)\"", expr):
        return variables.get(m.group(1)) or ""
    raise ValueError(f"unsupported VTL expression {expr!r}")


def _condition(cond: str, request: Request, variables: dict[str, Any]) -> bool:
    for alternative in cond.split("||"):
        left, op, right = alternative.partition("==")
        if not op:
            raise ValueError(f"unsupported VTL condition {cond!r}")
        if _value(left, request, variables) == _value(right, request, variables):
            return True
    return False


def render(template: str, request: Request) -> Rendered:
    variables: dict[str, Any] = {}
    status: int | None = None
    headers: dict[str, str] = {}
    out: list[str] = []
    # Each frame: (this branch is running, some branch of this #if already ran, parent running)
    stack: list[tuple[bool, bool, bool]] = []
    active = True
    for raw in template.splitlines():
        line = raw.strip()
        if m := _IF.match(line):
            if m.group("kind") == "if":
                taken = active and _condition(m.group("cond"), request, variables)
                stack.append((taken, taken, active))
            else:
                _, done, parent = stack.pop()
                taken = parent and not done and _condition(m.group("cond"), request, variables)
                stack.append((taken, done or taken, parent))
            active = stack[-1][0]
        elif line == "#else":
            _, done, parent = stack.pop()
            stack.append((parent and not done, True, parent))
            active = stack[-1][0]
        elif line == "#end":
            _, _, parent = stack.pop()
            active = parent
        elif m := _SET.match(line):
            if not active:
                continue
            target, value = m.group("target"), _value(m.group("expr"), request, variables)
            if target == "context.responseOverride.status":
                status = int(value)
            elif target.startswith("context.responseOverride.header."):
                headers[target.removeprefix("context.responseOverride.header.")] = value
            elif "." in target:
                raise ValueError(f"unsupported #set target {target!r}")
            else:
                variables[target] = value
        elif line.startswith("#"):
            raise ValueError(f"unsupported VTL directive {line!r}")
        elif active:
            out.append(_substitute(raw, request, variables))
    if stack:
        raise ValueError("unbalanced #if/#end")
    return Rendered("\n".join(out), status, headers)


def _substitute(line: str, request: Request, variables: dict[str, Any]) -> str:
    line = re.sub(
        r"\$input\.path\('([^']+)'\)", lambda m: str(_path(request.body, m.group(1))), line
    )
    if "$" in line:
        raise ValueError(f"unsupported reference in output line {line!r}")
    return line


def escape_javascript(text: str) -> str:
    """``$util.escapeJavaScript``: Apache Commons Lang 2 ``StringEscapeUtils.escapeJavaScript``.

    Java strings are UTF-16, so characters outside the BMP become two ``\\uXXXX``.
    """
    named = {
        "\b": "\\b",
        "\n": "\\n",
        "\t": "\\t",
        "\f": "\\f",
        "\r": "\\r",
        "'": "\\'",
        '"': '\\"',
        "\\": "\\\\",
        "/": "\\/",
    }
    units = text.encode("utf-16-be")
    out = []
    for i in range(0, len(units), 2):
        code = int.from_bytes(units[i : i + 2], "big")
        ch = chr(code)
        if ch in named:
            out.append(named[ch])
        elif code > 0x7F or code < 0x20:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    return "".join(out)


_VARIABLE = re.compile(r"\$(context(?:\.[A-Za-z][A-Za-z0-9]*)+)")


def substitute(template: str, values: Mapping[str, str]) -> str:
    """A gateway response template or access log format as API Gateway fills it in.

    Every ``$context...`` reference is replaced by ``values[name]`` as it is, with no
    escaping and nothing evaluated; a reference without a value raises, so a test
    has to say what each variable holds. ``$context.error.messageString`` is, as
    API Gateway documents it, the quoted (JSON string) form of ``$context.error.message``.
    """
    if "#" in template or "$util" in template or "$input" in template:
        raise ValueError(f"not a substitution-only template: {template!r}")

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(f"the test gives no value for ${name}")
        return values[name]

    return _VARIABLE.sub(value, template)


def error_variables(message: str) -> dict[str, str]:
    """API Gateway's error variables for an error whose message is ``message``."""
    return {
        "context.error.message": message,
        "context.error.messageString": json.dumps(message),
        "context.error.validationErrorString": message,
    }
