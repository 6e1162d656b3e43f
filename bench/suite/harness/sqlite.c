/* bench/suite: sqlite target. Our own harness in the spirit of sqlite's
   fuzzershell/ossfuzz: a fresh in-memory database per input, the input run
   as SQL text with sqlite3_exec, and limits so that no input runs long or
   grows without bound:
     - every database file, ATTACHed or VACUUMed INTO, goes through the
       "memdb" VFS, so nothing reaches the disk (temp files are in memory:
       the library is built with SQLITE_TEMP_STORE=3);
     - a progress handler stops a statement after ~100,000 VM steps;
     - SQLITE_LIMIT_LENGTH 100,000 bytes, SQLITE_LIMIT_VDBE_OP 25,000,
       SQLITE_LIMIT_SQL_LENGTH 100,000, and a 32 MiB hard heap limit;
     - defensive mode (no writes to the schema or shadow tables). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned progress_calls;

static int progress(void *unused) {
    (void)unused;
    return ++progress_calls > 1000; /* called every 100 VM steps */
}

static int row(void *unused, int n, char **values, char **names) {
    (void)unused;
    (void)names;
    size_t len = 0;
    for (int i = 0; i < n; i++) len += values[i] ? strlen(values[i]) : 0;
    return len > (1u << 20); /* abort on absurd output */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready) {
        sqlite3_initialize();
        sqlite3_hard_heap_limit64(32 << 20);
        ready = 1;
    }
    char *sql = malloc(size + 1);
    if (!sql) return 0;
    memcpy(sql, data, size);
    sql[size] = 0;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "memdb") == SQLITE_OK) {
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 100000);
        sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100000);
        sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 25000);
        sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
        progress_calls = 0;
        sqlite3_progress_handler(db, 100, progress, NULL);
        char *err = NULL;
        sqlite3_exec(db, sql, row, NULL, &err);
        sqlite3_free(err);
    }
    sqlite3_close(db);
    free(sql);
    return 0;
}
