#!/bin/bash
# Usage: scripts/count-error-writes.sh [<commit>]  (from the repository's top). Lists the lines of src/ (specs left out) that write an error to a
# client (the patterns of test/repository/one-error-path.spec.ts plus calls of the renderers and the engine's renderError
# hook), without comments, imports and the writers' own definitions; then the line and file counts.
REV=${1:-}
LIST=$(mktemp)
trap 'rm -f "$LIST"' EXIT
PAT='res\.status\(\s*([45][0-9][0-9]|[A-Za-z_][A-Za-z0-9_.]*)\s*\)|\.sendStatus\(\s*[45]|\.writeHead\(\s*([45][0-9][0-9]|[A-Za-z_][A-Za-z0-9_.]*)\s*[,)]|\b(ctx|res)\.(status|statusCode)\s*=\s*([45][0-9][0-9]|[A-Za-z_][A-Za-z0-9_.]*)\s*;|\b(ctx|res|reply)\.body\s*=\s*\{\s*["'"'"']?error["'"'"']?\s*:|\.(json|send)\(\s*\{\s*["'"'"']?error["'"'"']?\s*:|\b(sendError|toErrorBody|errorPage|errorPageHtml|renderError|renderPlainError|answerEngineError)\(|renderError:'
git grep -nE "$PAT" $REV -- src ':!*.spec.ts' | sed "s/^$REV://" \
  | grep -vE '^[^:]+:[0-9]+:\s*(//|\*|/\*|import )' \
  | grep -vE '(export )?(async )?function (sendError|toErrorBody|errorPage|errorPageHtml|renderError|renderPlainError|answerEngineError)\b|private (async )?renderError\(' > "$LIST"
cat "$LIST"
echo "call sites: $(wc -l < "$LIST"), files: $(cut -d: -f1 "$LIST" | sort -u | wc -l)"
echo "outside src/common/errors: $(grep -vc '^src/common/errors/' "$LIST") sites in $(grep -v '^src/common/errors/' "$LIST" | cut -d: -f1 | sort -u | wc -l) files"
DELEG='\b(renderError|renderPlainError|answerEngineError)\(|renderError:'
echo "writes (not a call of the renderer) outside src/common/errors: $(grep -v '^src/common/errors/' "$LIST" | grep -vcE "$DELEG") sites in $(grep -v '^src/common/errors/' "$LIST" | grep -vE "$DELEG" | cut -d: -f1 | sort -u | wc -l) files"
