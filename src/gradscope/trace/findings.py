"""What a diagnosis produces: a finding, with the source lines it names."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .locations import Site, is_library_path, source_line


# Roles whose second note for a line already named adds nothing the reader needs.
_ONCE_PER_LINE = frozenset({"setting", "used", "outer"})

@dataclass(frozen=True)
class Location:
    """A source line that plays a part in a finding (`role`: saved, modified, backward, ...)."""

    path: str
    line: int
    role: str
    note: str = ""  # a few words on what happened there
    function: str = field(default="", compare=False)
    callers: tuple[Site, ...] = field(default=(), compare=False)  # user frames that led here, outermost first

    @classmethod
    def at(cls, site: Site | None, role: str, note: str = "") -> "Location | None":
        return None if site is None else cls(site.path, site.line, role, note, site.function, site.callers)

    @property
    def code(self) -> str:
        return source_line(self.path, self.line)

    def to_dict(self) -> dict:
        """`stack`: the user frames that led to the line, outermost first, ending with the line itself."""
        frames = [*self.callers, Site(self.path, self.line, self.function)]
        return {"path": self.path, "line": self.line, "role": self.role, "code": self.code,
                "note": self.note, "function": self.function,
                "stack": [{"path": f.path, "line": f.line, "function": f.function,
                           "code": source_line(f.path, f.line)} for f in frames]}


FIX = "fix"  # the role of the line to change (at most two per finding, best first; shown first)
MAX_FIX_SITES = 2

# Roles that mark the line to change, best first (see Finding.primary).
_PRIMARY_ROLES = (FIX, "modified", "failed", "carried", "built", "linked", "cut", "read", "kept", "requires-grad", "suppression", "backward", "step")


@dataclass
class Finding:
    rule: str
    severity: str  # "error" or "warning"
    title: str
    explanation: str
    fix: str
    locations: list[Location] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    # How the fix text was chosen: "facts" (what the recording shows singles it out) or "guess"
    # (the likely cause of this kind of error; the report says so and what to check).
    fix_basis: str = "facts"

    @classmethod
    def naming(cls, rule: str, severity: str, title: str, explanation: str, fix: str,
               locations, details: dict | None = None) -> "Finding":
        """A finding with its lines (None entries, for lines the trace does not know, are skipped)."""
        finding = cls(rule, severity, title, explanation, fix, details=details or {})
        for location in locations:
            finding.add(location)
        return finding

    @property
    def primary(self) -> Location | None:
        """The line to point at when only one can be shown (an annotation, a SARIF result):
        where the problem was made if known, else the first line named."""
        for role in _PRIMARY_ROLES:
            for location in self.locations:
                if location.role == role:
                    return location
        return self.locations[0] if self.locations else None

    def add(self, location: Location | None) -> None:
        if location is None or location in self.locations:
            return
        if location.role in _ONCE_PER_LINE and any(
                (known.role, known.path, known.line) == (location.role, location.path, location.line)
                for known in self.locations):
            return  # (two options set on one config line: the first note says it)
        if location.role == FIX:  # (fix sites go first: see mark_fix)
            self.mark_fix(location, location.note)
        else:
            self.locations.append(location)

    def mark_fix(self, site: Site | Location | None, why: str, first: bool = False) -> bool:
        """Mark `site` as the line to change, with one sentence saying why that line. Fix sites go
        before every other location, in the order they are marked (best first), two at most;
        None (a line the trace does not know) marks nothing. `first`: ahead of those marked
        already (a fact found later singles it out), the last of two becoming an alternative.
        Returns whether it was marked."""
        if site is None or is_library_path(site.path):
            return False  # (an installed library's line is not one the user changes)
        marked = self.fix_sites
        if any((m.path, m.line) == (site.path, site.line) for m in marked) or (len(marked) >= MAX_FIX_SITES
                                                                              and not first):
            return False
        if len(marked) >= MAX_FIX_SITES:
            self.locations[self.locations.index(marked[-1])] = dataclasses.replace(marked[-1], role="alternative")
        location = Location(site.path, site.line, FIX, why, site.function, site.callers)
        self.locations.insert(0 if first else len(marked), location)
        return True

    @property
    def fix_sites(self) -> list[Location]:
        return [loc for loc in self.locations if loc.role == FIX]

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "title": self.title,
            "explanation": self.explanation,
            "fix": self.fix,
            "fix_basis": self.fix_basis,
            "locations": [loc.to_dict() for loc in self.locations],
            "details": self.details,
        }
