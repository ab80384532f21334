#!/bin/sh
# rename_internal.sh - the renames of #14 item 5, as a script so that
# every branch can apply them to its own files:
#  - symbols that are not in the public header include/joulecast.h use the
#    prefix jci_ (JCI_ for macros); the public API keeps jc_ / JC_;
#  - the bindings' entry points say what they do: jc_run_count_json,
#    jc_run_estimate_json, jc_run_ga_json (run a command, JSON out), and
#    jc_read_estimate_json reads a saved estimate (jc_report_*_json render).
#  - #38 item 5: a command's own options (jc_sweep_opts, jc_lookup_opts,
#    jc_statement_keys, jc_cmd_key ...) left the public API for the internal
#    src/workflows/cmd_opts.h, as jci_.
#  - #38 item 5: the ten internal types that still had the public prefix
#    (the efficiency model, kernel plan and node timing, the power model
#    and its phases, runtimes, host classes, node bounds, the arena's
#    block) take jci_ like their functions.
#  - #38 item 5: the enum constants and macros defined in src/ that still
#    had the public prefix JC_ (the efficiency model's slots, kernel plan
#    roles, node bounds, runtime kinds and profiles, power phases and
#    coefficients, host classes, src/ header guards, load.c's and
#    analyze.c's limits, arena.c's sizes, cmd_opts.c's option structs)
#    take JCI_; JC_ stays for what include/joulecast/ defines (JC_DT_*,
#    JC_PREC_*, JC_VERSION ...) and the environment variables (JC_SRC,
#    JC_RELEASE, JC_HWDB_DIR ...).
#
#   sh tools/rename_internal.sh            every C source, header and doc
#                                          under src/ tests/ bench/ docs/
#   sh tools/rename_internal.sh FILE...    only those files
#
# Idempotent (a second run changes nothing).  On a rebase conflict in a file
# you changed: take your side of the file, re-run this script on it.
set -eu
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- $(git ls-files 'src/*' 'tests/*.c' 'tests/*.h' 'tests/unit/*' 'tests/fuzz/*.c' 'bench/*.c' \
           'docs/*.md' 'README.md' 'bench/*.md' 'include/*' 'python/*.py' 'python/*.md' 'python/*.ipynb' |
           grep -E '\.(c|h|def|md|py|ipynb)$')
fi
perl -pi -e '
  s/\bjc_(cmd_key|command_opt_keys|statement_keys_set|statement_keys|lookup_opts_set|lookup_opts_check|lookup_opts|sweep_axis|sweep_opt_keys|sweep_opts_init|sweep_opts_release|sweep_opts_set|sweep_opts|sweep_plan|sweep_spec_from_opts)\b/jci_$1/g;
  s/\bjc_arena\b/jci_arena/g;
  s/\bjc_arena_(new|free|alloc|calloc|strndup|strdup|used)\b/jci_arena_$1/g;
  s/\bjc_diag_(set|at|yaml|node|clear)\b/jci_diag_$1/g;
  s/\bjc_strmap(_get|_init|_put)?\b/jci_strmap$1/g;
  s/\bjc_(hash_str|strcasecmp|edit_distance|mul_ok|add_ok)\b/jci_$1/g;
  s/\bjc__onnx_schema_selfcheck\b/jci_onnx_schema_selfcheck/g;
  s/\bjc_tensor_file_(dims|values)\b/jci_tensor_file_$1/g;
  s/\bjc_html_escape(_buf)?\b/jci_html_escape$1/g;
  s/\bJC_SNAPSHOT_RELOCATE\b/JCI_SNAPSHOT_RELOCATE/g;
  s/\bJC_SMALL_(TENSOR|VALUES)\b/JCI_SMALL_$1/g;
  s/\bjc_(count|estimate|ga)_json\b/jc_run_$1_json/g;
  s/\bjc_estimate_read_json\b/jc_read_estimate_json/g;
  s/\bjc_eff_(kernels|node_time|resolve)\b/jci_eff_$1/g;
  s/\bjc_host_class_(default|devices|name|parse|resolve)\b/jci_host_class_$1/g;
  s/\bjc_power_(activity|device_w|model_resolve)\b/jci_power_$1/g;
  s/\bjc_runtime_(name|parse)\b/jci_runtime_$1/g;
  s/\bjc_sha256(_file|_hex|_init|_update)?\b/jci_sha256$1/g;
  s/\bJC_(EFF|PLAN|RTK|RUNTIME|OPTS|BOUND|HOSTCLASS|POWER|PW)_/JCI_$1_/g;
  s/\bJC_(MAX_NODES_DEFAULT|EXPAND_BUDGET|ALLOC_MAX|BLOCK_MIN)\b/JCI_$1/g;
  s/\bJC_((?:ACCOUNT|ACTX|ARCH|BASE_FMT|BASE_YAML_TREE|BIND_INT|CLI|CLI_JOBOPTS|CLI_LOOKUP|CLI_WORKFLOW|CMD_OPTS|EFFICIENCY|ESTIMATE_AKEYS|ESTIMATE_BUILDER|ESTIMATE_INT|FINETUNE|HWDB_FIELDS|HWDB_INT|INTERNAL|JOB_REQSET|MONTECARLO|ONNX_INTERNAL|OPS|PARALLEL|POWER|REPORT_HTML_INT|RJSON|SENSITIVITY|SERVING_INT|SITE|TRACE_FIT|TRACE_INT|VM|WIRE|WORKFLOWS_GRID_RULES)_H)\b/JCI_$1/g;
  s/\bjc_(block|eff_device|eff_model|eff_plan|host_class|node_bound|node_time|power_model|power_phase|runtime)\b/jci_$1/g;
' "$@"
