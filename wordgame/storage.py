"""Static files storage for production: WhiteNoise's compressed files with hashed names,
and the hashed names written into the site's own ES modules' imports too."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

# `import { Live } from "./live.js";`: a static import of a sibling module, as the site's
# modules in static/js/ write them.
MODULE_IMPORT = (
    r"""(?P<matched>import(?s:(?P<import>[\s\{].*?))\s*from\s*["'](?P<url>\.{1,2}/.*?)["']\s*;)""",
    """import%(import)s from "%(url)s";""",
)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """``js/app.js`` imports ``./live.js``. Unrewritten, the hashed app.js would load the
    unhashed live.js, which nginx (deploy/) lets browsers keep for a year, so after a
    deploy a new app.js could run with an old live.js. Django's own switch for this
    (``support_js_module_import_aggregation``) applies its patterns to every ``*.js`` and
    fails the collection on a type import in a comment of the vendored ws extension
    (``import("../htmx")``), so the rewrite is limited to the site's modules."""

    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/*.js", (MODULE_IMPORT,)))
