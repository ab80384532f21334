/*
 * akeys.h (estimate) - the ids of the estimate's assumption keys (one table:
 * src/estimate/assumption_keys.def) and the typed lookup the library's
 * consumers use (statement, calibrate): by id, never by key string.
 */
#ifndef JCI_ESTIMATE_AKEYS_H
#define JCI_ESTIMATE_AKEYS_H

/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_assumption jc_assumption;
typedef struct jc_estimate jc_estimate;

typedef enum jci_akey {
#define AKEY(id, key, what) JCI_AK_##id,
#include "estimate/assumption_keys.def"
#undef AKEY
    JCI_AK_COUNT_
} jci_akey;

/* The key string of id (the table's own pointer); NULL when out of range. */
const char *jci_akey_name(jci_akey id);
/* The table's pointer for key, or NULL when the key is not in the table. */
const char *jci_akey_canonical(const char *key);
/* 1 when key is a derived figure of the table (its AKEY_FIGURE rows: the
 * range follows from the other inputs'; not an input: --pin refuses it,
 * the sensitivity leaves it out); 0 otherwise. */
int jci_akey_figure(const char *key);
/* The assumption of e with id, or NULL when the estimate did not use it. */
const jc_assumption *jci_estimate_assumption(const jc_estimate *e, jci_akey id);

#endif
