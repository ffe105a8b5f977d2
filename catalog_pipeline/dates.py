"""Calendar helpers: month arithmetic that clamps to the month's last day."""

from __future__ import annotations

import calendar
import datetime as dt


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` moved by `months` (negative goes back); 31 Aug + 6 months → 28/29 Feb."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))
