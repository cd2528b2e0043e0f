"""How the report writes numbers: one place, so a figure reads the same in every table."""

from __future__ import annotations


def n(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f} ms" if value >= 100 else f"{value:,.1f} ms"


def kib(value: float) -> str:
    return f"{value / 1024:,.1f} KiB"


def usd(value: float) -> str:
    if value >= 1:
        return f"${value:,.2f}"
    return f"${value:.4f}" if value >= 0.0001 else f"${value:.6f}"


def pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return [*lines, ""]
