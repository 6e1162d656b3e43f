/* bench/suite: lua target. Our own harness: a fresh Lua state per input
   with a 32 MiB allocator cap, the base, coroutine, table, string, math and
   utf8 libraries only (no io, os, package or debug; dofile, loadfile and
   print removed; load accepts text chunks only), the input compiled with
   luaL_loadbufferx in text mode and run under lua_pcall, stopped by a count
   hook after ~100,000 VM instructions. Two loops of the string library
   run in C, where no hook stops them, and made runs of every engine end
   at a 10 s hang of the harness rather than a bug of Lua: string.rep
   charges the count for what it writes, and gives an empty string (and
   separator) a count of at most 1, its result being "" whatever the count
   (string.rep("", 1e15); a loop of 2.6 MB reps, each freed before the
   next, under the allocator's cap); pattern matching charges the count
   for the subject's length (counted_match). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MEM_CAP (32u << 20)
static size_t in_use;
static unsigned hook_calls;

static void *cap_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    if (ptr == NULL) osize = 0;
    if (nsize == 0) {
        free(ptr);
        in_use -= osize;
        return NULL;
    }
    if (nsize > osize && in_use + (nsize - osize) > MEM_CAP) return NULL;
    void *p = realloc(ptr, nsize);
    if (p) in_use = in_use - osize + nsize;
    return p;
}

/* Adds `calls` hook calls' worth (1,000 instructions each, at most 1,000
   at once) to the count, and stops the input past 100. */
static void charge(lua_State *L, double calls) {
    hook_calls += (unsigned)(calls > 1000 ? 1000 : calls);
    if (hook_calls > 100) luaL_error(L, "instruction limit");
}

static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    charge(L, 1);
}

/* Calls Lua's own function (upvalue 1) with this call's arguments, and
   returns what it returns. */
static int call_own(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* string.rep(s, n [, sep]): Lua's own (upvalue 1), each MiB it writes
   charged one hook call (1,000 instructions' worth), with n at most 1 when
   s and sep are both empty, so that the same "" comes back at once. */
static int counted_rep(lua_State *L) {
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (l == 0 && lsep == 0 && n > 1) {
        lua_pushinteger(L, 1);
        lua_replace(L, 2);
    }
    if (n > 0) charge(L, (double)n * (double)(l + lsep) / (1 << 20));
    return call_own(L);
}

/* string.find, match, gmatch, gsub: Lua's own (upvalue 1), a subject of n
   bytes charged (n / 1 KiB)^2 hook calls first. A pattern with one
   repetition can try every length at every start, n^2 steps in C where no
   hook stops it ("%A*" on a 28,659-byte subject ran past 10 s); this
   bounds that case, not patterns that nest repetitions on short subjects. */
static int counted_match(lua_State *L) {
    size_t n;
    luaL_checklstring(L, 1, &n);
    double kib = (double)n / 1024;
    charge(L, kib * kib);
    return call_own(L);
}

/* load(chunk [, name [, mode [, env]]]) for string chunks, text mode only. */
static int text_load(lua_State *L) {
    size_t n;
    if (lua_type(L, 1) != LUA_TSTRING) {
        luaL_pushfail(L);
        lua_pushliteral(L, "load: only string chunks here");
        return 2;
    }
    const char *s = lua_tolstring(L, 1, &n);
    const char *name = luaL_optstring(L, 2, "=(load)");
    if (luaL_loadbufferx(L, s, n, name, "t") != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (!lua_isnone(L, 4)) {
        lua_pushvalue(L, 4);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

static const luaL_Reg libs[] = {
    {LUA_GNAME, luaopen_base},          {LUA_COLIBNAME, luaopen_coroutine},
    {LUA_TABLIBNAME, luaopen_table},    {LUA_STRLIBNAME, luaopen_string},
    {LUA_MATHLIBNAME, luaopen_math},    {LUA_UTF8LIBNAME, luaopen_utf8},
    {NULL, NULL},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    in_use = 0;
    hook_calls = 0;
    lua_State *L = lua_newstate(cap_alloc, NULL);
    if (!L) return 0;
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    lua_pushnil(L);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, text_load);
    lua_setglobal(L, "load");
    if (lua_getglobal(L, LUA_STRLIBNAME) == LUA_TTABLE) {
        lua_getfield(L, -1, "rep");
        lua_pushcclosure(L, counted_rep, 1);
        lua_setfield(L, -2, "rep");
        static const char *const matchers[] = {"find", "match", "gmatch", "gsub", NULL};
        for (const char *const *m = matchers; *m; m++) {
            lua_getfield(L, -1, *m);
            lua_pushcclosure(L, counted_match, 1);
            lua_setfield(L, -2, *m);
        }
    }
    lua_pop(L, 1);
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1000);
    if (luaL_loadbufferx(L, (const char *)data, size, "=input", "t") == LUA_OK)
        lua_pcall(L, 0, 0, 0);
    lua_close(L);
    return 0;
}
