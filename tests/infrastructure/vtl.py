"""Just enough Velocity (VTL) to run this project's API Gateway mapping templates in a test.

It knows the statements our templates use (#set, #if/#elseif/#else/#end,
#foreach with ``$foreach.hasNext``), the ``$input``/``$context`` references they read
or write, ``.matches()`` and ``/``, and ``!``/``||``/``==`` conditions. Anything else
raises, so a template that grows beyond this fails loudly here rather than being
half-understood.

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
_FOREACH = re.compile(r"^#foreach\(\$(?P<name>\w+) in (?P<expr>.+)\)$")


@dataclass
class Request:
    """What the template can see: the integration's JSON body, the method's headers and
    path parameters, and ``$context`` values (``requestTimeEpoch``)."""

    body: Mapping[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, str] = field(default_factory=dict)
    context: Mapping[str, Any] = field(default_factory=dict)


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
    if m := re.fullmatch(r"\$input\.params\('(\w+)'\)", expr):
        return request.params.get(m.group(1), "")
    if m := re.fullmatch(r"\$input\.path\('([^']+)'\)", expr):
        return _path(request.body, m.group(1))
    if m := re.fullmatch(r"\$context\.(\w+)", expr):
        return request.context[m.group(1)]
    if m := re.fullmatch(r"(.+?) / (\d+)", expr):
        return int(_value(m.group(1), request, variables)) // int(m.group(2))
    if m := re.fullmatch(r"(\$[\w.]+|\$input\.params\('\w+'\))\.matches\('([^']*)'\)", expr):
        # Java's String.matches: the whole string must match.
        return re.fullmatch(m.group(2), str(_value(m.group(1), request, variables))) is not None
    if m := re.fullmatch(r"\$(\w+)((?:\.\w+)*)", expr):
        value = variables.get(m.group(1))
        for part in filter(None, m.group(2).split(".")):
            value = value.get(part) if isinstance(value, Mapping) else None
        return value
    if re.fullmatch(r"\d+", expr):
        return int(expr)
    if m := re.fullmatch(r"\"([^\"$]*)\"|'([^'$]*)'", expr):
        return m.group(1) if m.group(1) is not None else m.group(2)
    if m := re.fullmatch(r"\"\$!(\w+)\"", expr):
        return variables.get(m.group(1)) or ""
    raise ValueError(f"unsupported VTL expression {expr!r}")


def _condition(cond: str, request: Request, variables: dict[str, Any]) -> bool:
    cond = cond.strip()
    if cond.startswith("!"):
        return not _condition(cond[1:], request, variables)
    if "==" not in cond:
        return bool(_value(cond, request, variables))
    for alternative in cond.split("||"):
        left, op, right = alternative.partition("==")
        if not op:
            raise ValueError(f"unsupported VTL condition {cond!r}")
        if _value(left, request, variables) == _value(right, request, variables):
            return True
    return False


@dataclass
class _Block:
    kind: str  # "root", "if", "foreach"
    head: str = ""
    # For "if": (condition or None for #else, lines) per branch; else one body.
    branches: list[tuple[str | None, list[Any]]] = field(default_factory=list)
    body: list[Any] = field(default_factory=list)


def _parse(template: str) -> list[Any]:
    root = _Block("root")
    stack: list[_Block] = [root]

    def target() -> list[Any]:
        top = stack[-1]
        return top.branches[-1][1] if top.kind == "if" else top.body

    for raw in template.splitlines():
        line = raw.strip()
        if m := _IF.match(line):
            if m.group("kind") == "if":
                block = _Block("if", branches=[(m.group("cond"), [])])
                target().append(block)
                stack.append(block)
            else:
                if stack[-1].kind != "if":
                    raise ValueError("#elseif outside #if")
                stack[-1].branches.append((m.group("cond"), []))
        elif line == "#else":
            if stack[-1].kind != "if":
                raise ValueError("#else outside #if")
            stack[-1].branches.append((None, []))
        elif m := _FOREACH.match(line):
            block = _Block("foreach", head=f"{m.group('name')}\0{m.group('expr')}")
            target().append(block)
            stack.append(block)
        elif line == "#end":
            if len(stack) == 1:
                raise ValueError("#end without a block")
            stack.pop()
        elif line.startswith("#") and not _SET.match(line):
            raise ValueError(f"unsupported VTL directive {line!r}")
        else:
            target().append(raw)
    if len(stack) != 1:
        raise ValueError("unbalanced #if/#foreach/#end")
    return root.body


@dataclass
class _Run:
    request: Request
    variables: dict[str, Any] = field(default_factory=dict)
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)

    def run(self, nodes: list[Any]) -> None:
        for node in nodes:
            if isinstance(node, _Block) and node.kind == "if":
                for cond, lines in node.branches:
                    if cond is None or _condition(cond, self.request, self.variables):
                        self.run(lines)
                        break
            elif isinstance(node, _Block):
                name, expr = node.head.split("\0")
                items = list(_value(expr, self.request, self.variables) or [])
                for i, item in enumerate(items):
                    self.variables[name] = item
                    self.variables["foreach"] = {"hasNext": i < len(items) - 1}
                    self.run(node.body)
            elif m := _SET.match(node.strip()):
                self._set(m.group("target"), _value(m.group("expr"), self.request, self.variables))
            else:
                self.out.append(_substitute(node, self.request, self.variables))

    def _set(self, target: str, value: Any) -> None:
        if target == "context.responseOverride.status":
            self.status = int(value)
        elif target.startswith("context.responseOverride.header."):
            self.headers[target.removeprefix("context.responseOverride.header.")] = value
        elif "." in target:
            raise ValueError(f"unsupported #set target {target!r}")
        else:
            self.variables[target] = value


def render(template: str, request: Request) -> Rendered:
    running = _Run(request)
    running.run(_parse(template))
    return Rendered("\n".join(running.out), running.status, running.headers)


def _substitute(line: str, request: Request, variables: dict[str, Any]) -> str:
    line = re.sub(
        r"\$input\.path\('([^']+)'\)", lambda m: str(_path(request.body, m.group(1))), line
    )
    line = re.sub(
        r"\$([A-Za-z]\w*(?:\.[A-Za-z]\w*)*)",
        lambda m: str(_value(m.group(0), request, variables)),
        line,
    )
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
