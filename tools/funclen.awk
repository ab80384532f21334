# funclen.awk - lengths of C function definitions, for tools/lint.sh.
#
# Relies on the project's layout: a definition's body opens with "{" in
# column 0 (alone on its line, or at the end of the signature) and closes
# with "}" in column 0.  Prints "FILE:LINE: NAME LENGTH" for each function,
# the length counted from the signature's first line to the closing brace.
FNR == 1 { sig = 0; inbody = 0 }
!inbody && /^[A-Za-z_][A-Za-z0-9_ \t\*]*[ \t\*]\(?[A-Za-z_][A-Za-z0-9_]*\(/ && !/;[ \t]*$/ && !/^(typedef|struct|enum|union|static const|const)[ \t][^(]*=/ {
    sig = FNR; name = $0
    sub(/\(.*/, "", name); sub(/.*[ \t\*]/, "", name)
}
!inbody && sig && /^\{|\)[ \t]*\{[ \t]*$/ && (/^\{/ || FNR == sig || prev_sig_cont) { inbody = 1; start = sig }
!inbody && sig && /;[ \t]*$/ && FNR != sig { sig = 0 }
{ prev_sig_cont = sig && !inbody }
inbody && /^\}/ { printf "%s:%d: %s %d\n", FILENAME, start, name, FNR - start + 1; inbody = 0; sig = 0 }
