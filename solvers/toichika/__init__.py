"""Toichika (遠い誓い, Nikoli): one arrow per country; arrows pair up facing each other.

Formats: puzz.link / pzv.jp URLs, pzprjs pzprv3 files and a readable ASCII drawing (``.toichika``).
Exact solving with python-sat; a step-by-step explainer with named techniques.
"""

from solvers.toichika.model import Toichika
from solvers.toichika.plugin import PLUGIN, ToichikaPlugin

__all__ = ["PLUGIN", "Toichika", "ToichikaPlugin"]
