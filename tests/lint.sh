#!/bin/sh
# lint.sh (tests) - the lint layer of `make test`: tools/lint.sh's checks
# (third-party headers in their owner folders, no printing from the
# library, purpose comments, no loose .c in src/, functions <= 150 lines,
# every cJSON add checked, no jc_status cast to (void), the jc_/jci_ prefix rule, only jc_ exported), one PASS/FAIL each.
cd "$(dirname "$0")/.." && exec sh tools/lint.sh
