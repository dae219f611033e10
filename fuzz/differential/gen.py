"""Random control repos in the oracle's case format (deterministic by seed).

A case is first built as a *model* (plain JSON-able Python data, see
`emit_case`), then written out as files. The reducer shrinks the model, so
everything a case contains lives in the model:

    {"settings": {...}, "facts": {...}, "node": {...} | None,
     "files": {relpath: file},        # file: {"yaml": value} | {"json": value} | {"raw": text}
     "queries": [ {key, merge?, default?} ... ]}

Values inside a model: str (written as a quoted YAML string), int, float,
bool, None, list, dict (str keys; a key starting with "=" is written raw, so
"=1" is the integer key 1 and "=<<" a merge key), and three wrappers:
{"$raw": text} (a YAML scalar written verbatim), {"$anchor": name, "v": value}
(written `&name <flow value>`) and {"$alias": name} (written `*name`).

Standard library only; Python 3.8+.
"""

import json
import random
import re

ENV = "production"
MODULES = ["mod", "other"]
BASE_MODULE = "bmod"

# Every kind of scalar Psych (YAML 1.1) resolves, written verbatim.
YAML_SCALARS = [
    "1", "0", "-7", "+12", "0777", "0o17", "09", "0x1F", "0b101", "1_000", "1:20", "190:20:30",
    "123456789012345678901234567890", "0.1", "1.10", "-0.0", "3.0", "1e3", "1.5e3", "1.5e+3",
    "1.0e-2", "6.02e+23", ".5", "1.", ".inf", "-.inf", "+.inf", ".nan", ".NaN", ".Inf",
    "true", "false", "yes", "no", "on", "off", "True", "FALSE", "y", "n", "Yes", "NO",
    "~", "null", "Null", "", "''", '""', "plain text", "'single'", '"double\\tquoted"',
    "'042'", "'3'", "'0.5'", "'true'", "'--'", "--gone", "'--x'", "x", "a b", "'x,y'",
    "2020-01-01", ":sym", "'%%{facts.role}'", "!!str 12", "!!int '7'", "!!float '2'",
    "1.5e+400", "'-'", "'[1, 2]'",
]
# Same, but without the ones that make a whole file unloadable (dates) or that
# only fail at lookup (symbols), for files that should mostly be valid.
SAFE_SCALARS = [s for s in YAML_SCALARS if s not in ("2020-01-01", ":sym")]

INTERP_FUNCS = [
    "%{facts.role}", "%{facts.os.family}", "%{::role}", "%{role}", "%{facts.nope}",
    "%{trusted.certname}", "%{environment}", "%{name}", "%{tier}", "%{server_facts.servername}",
    "%{lookup('a')}", "%{lookup('h')}", "%{lookup('h.x')}", "%{lookup('arr')}",
    "%{lookup('mod::x')}", "%{lookup('missing')}", "%{hiera('a')}", "%{hiera('b')}",
    "%{scope('facts.role')}", "%{scope('tier')}", "%{literal('%')}", "%{literal('x')}",
    "%{alias('arr')}", "%{alias('h')}", "%{alias('a')}", "%{alias('missing')}",
    "%{lookup(a)}", "%{}", "%{::}", "%{ facts.role }", "%{lookup('c')}", "%{lookup('mod::h')}",
    "%{nope('x')}", "%{lookup('a', 'b')}", "%{facts.os}",
]

GLOBAL_KEYS = ["a", "b", "c", "h", "arr", "s", "n", "d.e", "deep"]
MOD_KEYS = ["mod::x", "mod::h", "mod::arr", "mod::n", "other::y"]
BASE_KEYS = ["bmod::x", "bmod::h"]
ALL_KEYS = GLOBAL_KEYS + MOD_KEYS + BASE_KEYS

MERGES = [None, None, None, "first", "unique", "hash", "deep",
          {"strategy": "deep", "knockout_prefix": "--"},
          {"strategy": "deep", "merge_hash_arrays": True, "sort_merged_arrays": True},
          {"strategy": "hash"}, {"strategy": "unique"}, "bogus"]

CONVERT = ["Integer", "Float", "String", "Boolean", "Array", "Hash", "Numeric", "Sensitive",
           ["Integer", 10], ["Integer", 16], ["Array", True], ["String", "%x"], "Optional[Integer]",
           "Integer[0]", "Undef", "Tuple", "Bogus", ["Boolean"], "Variant[Integer,String]"]


# Generator version 2 (`--gen 2`) adds these: format arguments of `convert_to:
# [String, F]` (Puppet's StringConverter: letters, flags, width, precision;
# container formats with delimiters; a Hash of formats per type) and the
# other arguments of Integer's and Float's `new` (radix, abs). Version 1 (the
# default, which the committed seed-7 batch pins) never draws them.
FORMAT_LETTERS = "dxXobBeEfgGaAsSpqciuy"
FORMAT_FLAGS = [" ", "+", "#", "0", "-", "[", "{", "(", "<", "|"]
CONTAINER_FORMATS = ["%a", "%(a", "%[a", "%{a", "%<a", "%|a", "%#a", "%h", "%{h", "%[h", "%(h", "%#h",
                     "%s", "%p", "%#(a", "%-10a", "%1a", "%.1a"]
NEW_ARGS = [["Integer", 2], ["Integer", 8], ["Integer", 10], ["Integer", 16], ["Integer", 16, True],
            ["Integer", 10, True], ["Integer", 8, False], ["Integer", 3], ["Integer", True],
            ["Float", True], ["Float", False], ["Numeric", True], ["Numeric", False], ["Float", 2]]


# Generator version 3 (`--gen 3`) adds what version 2 still never drew:
# `new` given a Hash of named arguments as the value (Integer's, Float's and
# Numeric's `{from, radix, abs}`, Timespan's and Timestamp's hashes), a Hash
# as a positional argument, `abs` after a `default`-less radix, the time
# types (Timespan, Timestamp, with formats and a timezone), Boolean with
# arguments, Sensitive and Optional/NotUndef around every convertible type.
# Versions 1 and 2 never draw any of it, so their batches are unchanged.
CONVERT_V3 = ["Integer", "Float", "Numeric", "Integer", "Float", "Numeric", "Boolean",
              ["Integer", {"radix": 16}], ["Float", {"abs": True}], ["Numeric", {"from": "1"}],
              ["Integer", 16, True], ["Integer", 8, False], ["Integer", 2, True], ["Numeric", True, True],
              ["Boolean", True], ["Boolean", "yes"], "Boolean[true]",
              "Timespan", ["Timespan", "%D-%H:%M:%S"], ["Timespan", "%H:%M"], ["Timespan", ["%M", "%S"]],
              "Timestamp", ["Timestamp", "%Y-%m-%d"], ["Timestamp", "%Y-%m-%d", "UTC"], ["Timestamp", "%F %T", "+01:00"],
              "Sensitive", "Sensitive[String]", "Sensitive[Integer]", ["Sensitive", 1],
              "Optional[Boolean]", "Optional[Float]", "Optional[Numeric]", "Optional[String]", "Optional[Array]",
              "Optional[Hash]", "Optional[Integer[0]]", "Optional[Timespan]", "Optional[Timestamp]",
              "NotUndef[Integer]", "NotUndef[String]", ["Optional[Integer]", 16], ["Optional[String]", "%x"],
              "Integer[0, 10]", "Float[0.0, 1.0]", "Numeric[0]"]
NAMED_FROM = ["'0x1F'", "'10'", "'-5'", "'017'", "'0b101'", "'- 3'", "'1.5'", "'-2.5e1'", "-7", "2.5", "-0.5",
              "true", "false", "'x'", "~", "'09'", "'1_000'"]
TIME_STRINGS = ["'1-02:03:04'", "'02:03:04'", "'02:03'", "'4.5'", "'3'", "'-1-00:00:01.5'",
                "'2020-01-02'", "'2020-01-02T03:04:05Z'", "'2020-01-02T03:04:05.123+02:00'",
                "'2020-01-02 03:04:05'", "'2020-13-45'", "'1 day'"]


class Gen:
    def __init__(self, seed, version=1):
        self.r = random.Random(seed)
        self.version = version

    def format_string(self):
        if self.chance(0.15):
            return self.pick(CONTAINER_FORMATS)
        f = "%"
        for _ in range(self.r.randrange(0, 3) if self.chance(0.4) else 0):
            f += self.pick(FORMAT_FLAGS)
        if self.chance(0.3):
            f += str(self.r.randrange(1, 12))
        if self.chance(0.3):
            f += "." + str(self.r.randrange(0, 6))
        return f + self.pick(FORMAT_LETTERS)

    def convert_to_v2(self):
        """A `convert_to` with arguments (generator version 2)."""
        r = self.r.random()
        if r < 0.55:
            return ["String", self.format_string()]
        if r < 0.75:
            formats = {}
            for _ in range(self.r.randrange(1, 4)):
                t = self.pick(["Integer", "Float", "Numeric", "String", "Boolean", "Array", "Hash", "Any",
                               "Undef", "Bogus"])
                if t in ("Array", "Hash") and self.chance(0.6):
                    cf = {}
                    if self.chance(0.8):
                        cf["format"] = self.pick(CONTAINER_FORMATS)
                    if self.chance(0.5):
                        cf["separator"] = self.pick([";", ", ", "", " | "])
                    if t == "Hash" and self.chance(0.5):
                        cf["separator2"] = self.pick([" => ", ":", "="])
                    if self.chance(0.2):
                        cf["string_formats"] = {self.pick(["Integer", "String", "Float"]): self.format_string()}
                    formats[t] = cf
                else:
                    formats[t] = self.format_string()
            return ["String", formats]
        return self.pick(NEW_ARGS)

    def chance(self, p):
        return self.r.random() < p

    def named_args(self):
        """A Hash of named arguments for `new` (generator version 3)."""
        r = self.r.random()
        if r < 0.6:
            d = {}
            if self.chance(0.9):
                d["from"] = {"$raw": self.pick(NAMED_FROM)}
            if self.chance(0.4):
                d["radix"] = self.pick([2, 8, 10, 16, 3, {"$raw": "'16'"}])
            if self.chance(0.4):
                d["abs"] = self.pick([True, False, {"$raw": "'yes'"}])
            if self.chance(0.1):
                d[self.pick(["x", "to", "format"])] = 1
            return d
        if r < 0.8:
            d = {}
            for k in self.r.sample(["negative", "days", "hours", "minutes", "seconds", "milliseconds",
                                    "microseconds", "nanoseconds"], self.r.randrange(1, 4)):
                d[k] = True if k == "negative" else self.pick([0, 1, 2, 59, 61, -1, 1.5])
            return d
        d = {"string": {"$raw": self.pick(TIME_STRINGS)}}
        if self.chance(0.5):
            d["format"] = self.pick(["%D-%H:%M:%S", "%H:%M", "%Y-%m-%d", "%F", ["%H:%M", "%S"]])
        if self.chance(0.3):
            d["timezone"] = self.pick(["UTC", "+01:00", "Europe/Bogus"])
        return d

    def convert_to_v3(self):
        """A `convert_to` of generator version 3: named-argument types, time types, wrappers."""
        return self.pick(CONVERT_V3)

    def pick(self, xs):
        return xs[self.r.randrange(len(xs))]

    # ------------------------------------------------------------ values
    def string(self):
        r = self.r.random()
        if r < 0.3:
            return self.pick(["web", "db", "x", "--x", "--", "shared", "", "a.b", "042", "3"])
        if r < 0.8:
            return self.pick(["v-", "<", "", "pre "]) + self.pick(INTERP_FUNCS) + self.pick(["", ">", "-x"])
        return self.pick(INTERP_FUNCS)

    def scalar(self, safe=True):
        if self.version >= 3 and self.chance(0.06):
            return {"$raw": self.pick(TIME_STRINGS)}
        r = self.r.random()
        if r < 0.55:
            return {"$raw": self.pick(SAFE_SCALARS if safe else YAML_SCALARS)}
        if r < 0.9:
            return self.string()
        return self.pick([1, 2, -1, 0.5, True, False, None])

    def value(self, depth=0, safe=True):
        if self.version >= 3 and depth == 0 and self.chance(0.12):
            return self.named_args()
        r = self.r.random()
        if depth >= 3 or r < 0.45:
            return self.scalar(safe)
        if r < 0.72:
            return [self.value(depth + 1, safe) for _ in range(self.r.randrange(0, 4))]
        d = {}
        for _ in range(self.r.randrange(0, 4)):
            k = self.pick(["x", "y", "z", "--x", "=1", "a.b", "k", "=true"] if not safe else
                          ["x", "y", "z", "--x", "k", "a.b", "=1", "n"])
            d[k] = self.value(depth + 1, safe)
        return d

    def json_value(self, depth=0):
        r = self.r.random()
        if depth >= 3 or r < 0.5:
            return self.pick([1, 0, -3, 0.1, 2.5, 1e20, True, False, None, "x", "--x", "042",
                              self.string(), self.string()])
        if r < 0.75:
            return [self.json_value(depth + 1) for _ in range(self.r.randrange(0, 4))]
        return {self.pick(["x", "y", "z", "--x", "k"]): self.json_value(depth + 1)
                for _ in range(self.r.randrange(0, 4))}

    def lookup_options(self, keys, json=False):
        lo = {}
        for _ in range(self.r.randrange(1, 4)):
            k = self.pick(keys + ["^mod::.*", "^a.*", "^[", "^.*", "^mod::(x|h)$", "b"])
            opts = {}
            if self.chance(0.7):
                m = self.pick(MERGES[3:])
                opts["merge"] = m
            if self.chance(0.35):
                opts["convert_to"] = self.pick(CONVERT)
                if self.version >= 2 and self.chance(0.6):
                    opts["convert_to"] = self.convert_to_v2()
                if self.version >= 3 and self.chance(0.55):
                    opts["convert_to"] = self.convert_to_v3()
            if self.chance(0.05):
                opts = self.pick([None, "deep", [], {"bogus": 1}])
            lo[k] = opts
        if self.chance(0.05):
            return None
        return lo

    def data_file(self, keys, json_file=False, lo_keys=None):
        d = {}
        if not json_file and self.chance(0.12):
            d["base"] = {"$anchor": "b", "v": {"x": self.scalar(), "y": [self.scalar()]}}
        for k in self.r.sample(keys, self.r.randrange(1, min(6, len(keys)) + 1)):
            if json_file:
                d[k] = self.json_value()
            elif "base" in d and self.chance(0.4):
                d[k] = self.pick([{"=<<": {"$alias": "b"}, "z": self.scalar()}, {"$alias": "b"}])
            else:
                d[k] = self.value(safe=not self.chance(0.04))
        if lo_keys and self.chance(0.3):
            lo = self.lookup_options(lo_keys)
            d["lookup_options"] = lo
        return d

    # ------------------------------------------------------------ configs
    def level(self, layer_root, paths_pool, data_hash):
        lvl = {"name": "L%d" % self.r.randrange(100)}
        kind = self.r.random()
        if kind < 0.6:
            lvl["path"] = self.pick(paths_pool)
        elif kind < 0.8:
            lvl["paths"] = self.r.sample(paths_pool, min(len(paths_pool), self.r.randrange(1, 3)))
        elif kind < 0.9:
            lvl["glob"] = self.pick(["*.yaml", "role/*.yaml", "{common,role/web}.yaml", "**/*.yaml"])
        else:
            lvl["mapped_paths"] = ["facts.list", "item", "list/%{item}.yaml"]
        if data_hash != "default":
            lvl["data_hash"] = data_hash
        if self.chance(0.1):
            lvl["datadir"] = self.pick(["data", "other", "data/role"])
        return lvl

    def config(self, paths_pool):
        if self.chance(0.04):
            return {"raw": self.pick(["version: 5\nhierarchy: [", "version: 4\n", "--- 3\n",
                                      "version: 5\nhierarchy:\n  - name: x\n",
                                      "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n    bogus: 1\n",
                                      "version: 5\nhierarchy:\n  - path: common.yaml\n",
                                      "version: 5\ndefaults:\n  data_hash: bogus_data\nhierarchy:\n  - name: c\n    path: common.yaml\n",
                                      ":backends: yaml\n:hierarchy: [common]\n"])}
        cfg = {"version": 5}
        if self.chance(0.3):
            cfg["defaults"] = {"datadir": self.pick(["data", "other"]), "data_hash": self.pick(["yaml_data", "json_data"])}
        levels = []
        for _ in range(self.r.randrange(1, 4)):
            dh = self.pick(["default", "default", "yaml_data", "json_data"])
            levels.append(self.level(None, paths_pool, dh))
        cfg["hierarchy"] = levels
        return {"yaml": cfg}

    # ------------------------------------------------------------ case
    def case(self):
        c = {"files": {}, "queries": []}
        facts = {"role": self.pick(["web", "db", "", "%{facts.os.family}"]),
                 "os": {"family": self.pick(["Debian", "RedHat"])},
                 "list": self.pick([["a", "b"], ["web"], []])}
        c["facts"] = facts
        c["node"] = {"certname": "n1.example.com"} if self.chance(0.4) else None
        c["variables"] = {"tier": "gold"} if self.chance(0.3) else {}
        c["server_facts"] = {"servername": "puppet.example.com"} if self.chance(0.2) else None
        settings = {}
        if self.chance(0.4):
            settings["strict"] = self.pick(["off", "warning", "error"])
        use_base = self.chance(0.2)
        if use_base:
            settings["basemodulepath"] = ["base1"]
        c["settings"] = settings

        paths_pool = ["common.yaml", "common.json", "role/%{facts.role}.yaml", "os/%{facts.os.family}.yaml",
                      "nodes/%{trusted.certname}.yaml", "common.yaml", "extra.yaml"]
        layers = []
        if not self.chance(0.15):
            layers.append(("", GLOBAL_KEYS + (MOD_KEYS if self.chance(0.3) else [])))
        if self.chance(0.75):
            layers.append(("environments/%s/" % ENV, GLOBAL_KEYS + MOD_KEYS))
        if self.chance(0.7):
            layers.append(("environments/%s/modules/mod/" % ENV, ["mod::x", "mod::h", "mod::arr", "mod::n", "a"]))
        if use_base and self.chance(0.8):
            layers.append(("base1/bmod/", BASE_KEYS))
        for root, keys in layers:
            cfg = None
            if root.startswith("environments/%s/modules" % ENV) or root.startswith("base1"):
                if self.chance(0.85):
                    cfg = self.config(paths_pool)
            elif root == "" and self.chance(0.15):
                cfg = None  # Puppet's default global config: data/common.yaml
            else:
                cfg = self.config(paths_pool)
            if cfg is not None:
                c["files"][root + "hiera.yaml"] = cfg
            datadirs = ["data"]
            if cfg and "yaml" in cfg:
                dd = cfg["yaml"].get("defaults", {}).get("datadir")
                if dd:
                    datadirs = [dd]
            lo_keys = [k for k in keys if "::" not in k] if root == "" or root.startswith("environments/%s/h" % ENV) else keys
            lo_keys = keys
            for p in self.r.sample(paths_pool[:5] + ["extra.yaml"], self.r.randrange(1, 5)):
                p = p.replace("%{facts.role}", facts["role"]).replace("%{facts.os.family}", facts["os"]["family"])
                p = p.replace("%{trusted.certname}", (c["node"] or {}).get("certname", ""))
                full = root + self.pick(datadirs) + "/" + p
                if self.chance(0.05):
                    c["files"][full] = {"raw": self.pick(["a: [1, 2\n", "- 1\n- 2\n", "--- ~\n", "", "just a string\n",
                                                          "a: 2020-01-01\n", "a: :sym\n", "{\"a\": 1", "[1]",
                                                          "a: 1\na: 2\n", "a: *nope\n", "\t- x\n"])}
                elif p.endswith(".json"):
                    c["files"][full] = {"json": self.data_file(keys, json_file=True, lo_keys=lo_keys)}
                else:
                    c["files"][full] = {"yaml": self.data_file(keys, lo_keys=lo_keys)}
            if root.startswith("environments/%s/modules" % ENV) and self.chance(0.1):
                c["files"][root + "data/common.yaml"] = {"yaml": {"lookup_options": None, "mod::x": self.scalar()}}
        if self.chance(0.1):
            # same file read by two levels with different data_hash (Puppet caches by path)
            c["files"]["hiera.yaml"] = {"yaml": {"version": 5, "hierarchy": [
                {"name": "y", "path": "common.yaml", "data_hash": "yaml_data"},
                {"name": "j", "path": "common.yaml", "data_hash": "json_data"}]}}
            c["files"]["data/common.yaml"] = {"raw": self.pick(['{"a": 1, "b": [1, 2]}\n', "a: 1\nb: x\n"])}

        for _ in range(self.r.randrange(3, 9)):
            q = {"key": self.query_key()}
            m = self.pick(MERGES)
            if m is not None:
                q["merge"] = m
            if self.chance(0.15):
                q["default"] = self.pick(["dflt", 0, None, [], {"x": 1}, "%{facts.role}"])
            c["queries"].append(q)
        return c

    def query_key(self):
        r = self.r.random()
        if r < 0.7:
            return self.pick(ALL_KEYS)
        return self.pick(["h.x", "h.y.0", "arr.0", "arr.-1", "arr.5", "'d.e'", "d.e", "mod::h.x",
                          "mod::arr.1", "lookup_options", "deep.x.y", "h.'a.b'", "h.1", "a.b",
                          "missing", "mod::missing", "bmod::h.x", "h.--x", "'h'.x", "h..x"])


def gen_case(seed, index, version=1):
    """The model of case `index` of the batch with `seed` (generator `version`)."""
    return Gen("%d/%d" % (seed, index), version).case()


# ---------------------------------------------------------------- emission
PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_:]*$")


def yq(s):
    return "'" + s.replace("'", "''") + "'"


def ykey(k):
    if k.startswith("="):
        return k[1:]
    if PLAIN_KEY.match(k) and k.lower() not in ("yes", "no", "on", "off", "true", "false", "null", "y", "n"):
        return k
    return yq(k)


def yflow(v):
    if isinstance(v, dict):
        if "$raw" in v:
            return v["$raw"] if v["$raw"] != "" else "''"
        if "$alias" in v:
            return "*" + v["$alias"]
        if "$anchor" in v:
            return "&%s %s" % (v["$anchor"], yflow(v["v"]))
        return "{" + ", ".join("%s: %s" % (ykey(k), yflow(x)) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(yflow(x) for x in v) + "]"
    if v is None:
        return "~"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return yq(v)


def yblock(v, indent=0):
    """Lines of a block-style YAML rendering of a top-level mapping or list."""
    pad = " " * indent
    out = []
    if isinstance(v, dict) and not any(m in v for m in ("$raw", "$alias", "$anchor")) and v:
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x and not (isinstance(x, dict) and any(m in x for m in ("$raw", "$alias", "$anchor"))):
                out.append("%s%s:" % (pad, ykey(k)))
                out.extend(yblock(x, indent + 2))
            else:
                out.append("%s%s: %s" % (pad, ykey(k), yflow(x)))
        return out
    if isinstance(v, list) and v:
        for x in v:
            if isinstance(x, dict) and x and not any(m in x for m in ("$raw", "$alias", "$anchor")):
                inner = yblock(x, indent + 2)
                out.append(pad + "- " + inner[0].lstrip())
                out.extend(inner[1:])
            else:
                out.append("%s- %s" % (pad, yflow(x)))
        return out
    return [pad + yflow(v)]


def to_plain(v):
    """The JSON-able form of a case.yaml value (no wrappers there)."""
    return v


def emit_file(f):
    if "raw" in f:
        return f["raw"]
    if "json" in f:
        return json.dumps(f["json"], indent=1) + "\n"
    v = f["yaml"]
    return "---\n" + "\n".join(yblock(v)) + "\n"


def case_yaml(c, description):
    doc = {"description": description}
    if c.get("node"):
        doc["node"] = c["node"]
    doc["facts"] = c["facts"]
    if c.get("variables"):
        doc["variables"] = c["variables"]
    if c.get("server_facts"):
        doc["server_facts"] = c["server_facts"]
    if c.get("settings"):
        doc["settings"] = c["settings"]
    doc["queries"] = c["queries"]
    # JSON is YAML: case.yaml is written as JSON-style flow per entry.
    lines = []
    for k, v in doc.items():
        if k == "queries":
            lines.append("queries:")
            for q in v:
                lines.append("  - " + json.dumps(q))
        else:
            lines.append("%s: %s" % (k, json.dumps(v)))
    return "\n".join(lines) + "\n"


def write_case(c, directory, description):
    import os
    os.makedirs(directory, exist_ok=True)
    for rel, f in sorted(c["files"].items()):
        path = os.path.join(directory, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(emit_file(f))
    with open(os.path.join(directory, "case.yaml"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(case_yaml(c, description))
