"""What a diagnosis produces: a finding, with the source lines it names."""

from __future__ import annotations

from dataclasses import dataclass, field

from .locations import Site, source_line


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


# Roles that mark the line to change, best first (see Finding.primary).
_PRIMARY_ROLES = ("modified", "failed", "carried", "built", "linked", "cut", "read", "kept", "requires-grad", "suppression", "backward", "step")


@dataclass
class Finding:
    rule: str
    severity: str  # "error" or "warning"
    title: str
    explanation: str
    fix: str
    locations: list[Location] = field(default_factory=list)
    details: dict = field(default_factory=dict)

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
        if location is not None and location not in self.locations:
            self.locations.append(location)

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "title": self.title,
            "explanation": self.explanation,
            "fix": self.fix,
            "locations": [loc.to_dict() for loc in self.locations],
            "details": self.details,
        }
