// The C++ test of include/hiera.hpp: RAII handles, lookups checked against
// Puppet's answers in EXAMPLES_DIR/expected.json, errors as exceptions that
// carry the error object, and threads sharing one config and one session.
//
// usage: test_hiera_cpp EXAMPLES_DIR
#include "hiera.hpp"
#include "testutil.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

static int passed, failed;

#define CHECK(cond, what)                                                           \
  do {                                                                              \
    if (cond) {                                                                     \
      passed++;                                                                     \
    } else {                                                                        \
      failed++;                                                                     \
      std::cerr << "FAIL " << __FILE__ << ":" << __LINE__ << ": " << #cond << ": " \
                << what << "\n";                                                    \
    }                                                                               \
  } while (0)

// Runs f, which must throw libhiera::error; returns it.
template <typename F>
static libhiera::error expect_error(F f) {
  try {
    f();
  } catch (const libhiera::error &e) {
    return e;
  }
  return libhiera::error(HIERA_OK, "");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: test_hiera_cpp EXAMPLES_DIR\n";
    return 2;
  }
  char dir[PATH_MAX];
  tu_expected expected;
  if (!realpath(argv[1], dir) || tu_load_expected(dir, &expected) != 0) {
    std::cerr << "cannot read " << argv[1] << "/expected.json\n";
    return 2;
  }
  const std::string root = dir;
  const std::string options = "{\"hiera_config\":" + libhiera::json_quote(root + "/hiera.yaml") +
                              ",\"environmentpath\":" +
                              libhiera::json_quote(root + "/environments") + "}";

  {
    // Puppet's answers, through lookup_key and lookup.
    libhiera::config cfg(options);
    libhiera::session node(cfg, expected.scope);
    for (size_t i = 0; i < expected.count; i++) {
      const tu_case &c = expected.cases[i];
      auto got = node.lookup(std::string("{\"key\":") + c.key_json + "}");
      if (c.value) {
        CHECK(got && *got == c.value, c.key_json << ": " << got.value_or("(not found)"));
      } else {
        CHECK(!got, c.key_json << " should not be found");
      }
    }
    CHECK(node.lookup_key("ntp::service_name") == std::optional<std::string>("\"ntpsec\""), "key");
    CHECK(!node.lookup_key("no::such::key"), "not found");

    // Explanations come back for found and not-found keys.
    auto ex = node.lookup(R"({"key":"no::such::key","explain":true})");
    CHECK(ex && ex->rfind("{\"not_found\":true,\"explain\":\"", 0) == 0, ex.value_or("(none)"));

    // lookup_many: one array.
    std::string many = node.lookup_many(R"([{"key":"ntp::service_name"},{"key":"nope"}])");
    CHECK(many == R"([{"value":"ntpsec"},{"not_found":true}])", many);

    // Errors are exceptions with the error object.
    auto e = expect_error([&] { node.lookup(R"({"key":"motd","colour":1})"); });
    CHECK(e.status() == HIERA_INVALID_ARGUMENT, e.status());
    CHECK(e.kind() == "invalid_argument", e.kind());
    CHECK(std::string(e.what()) == "unknown request field 'colour'", e.what());
    CHECK(e.json() == R"({"kind":"invalid_argument","message":"unknown request field 'colour'"})",
          e.json());
    e = expect_error([&] { node.lookup(R"({"key":"motd","merge":"bogus"})"); });
    CHECK(e.status() == HIERA_ERROR, e.status());
    e = expect_error([&] { node.lookup_many("{}"); });
    CHECK(e.status() == HIERA_INVALID_ARGUMENT && e.kind() == "invalid_argument", e.json());
    e = expect_error([&] { libhiera::config bad(R"({"environment":"a/b"})"); });
    CHECK(e.status() == HIERA_INVALID_ARGUMENT, e.json());
    CHECK(std::string(e.what()) == "Invalid environment name 'a/b'", e.what());
    e = expect_error([&] { libhiera::session bad(cfg, "[]"); });
    CHECK(e.status() == HIERA_INVALID_ARGUMENT, e.json());
    // Escapes in messages are decoded: \" and \u00e9.
    e = expect_error([&] { node.lookup("{\"key\":\"motd\",\"\\u00e9\\\"\":1}"); });
    CHECK(std::string(e.what()) == "unknown request field '\xc3\xa9\"'", e.what());

    // Keys are quoted for JSON.
    CHECK(libhiera::json_quote("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"",
          libhiera::json_quote("a\"b\\c\n\x01"));

    // Threads share the config and the session; moves keep ownership single.
    libhiera::session moved = std::move(node);
    std::atomic<int> wrong{0}, calls{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; t++) {
      threads.emplace_back([&, t] {
        libhiera::session own(cfg, expected.scope);
        for (int r = 0; r < 20; r++) {
          const tu_case &c = expected.cases[(size_t)(t + r) % expected.count];
          const libhiera::session &s = r % 2 ? moved : own;
          auto got = s.lookup(std::string("{\"key\":") + c.key_json + "}");
          calls++;
          if (c.value ? !(got && *got == c.value) : got.has_value()) wrong++;
        }
      });
    }
    for (auto &t : threads) t.join();
    CHECK(wrong == 0 && calls == 160, wrong << " wrong of " << calls);
  }

  {
    // A session outlives its config object.
    std::optional<libhiera::session> s;
    {
      libhiera::config cfg(options);
      s.emplace(cfg, expected.scope);
    }
    CHECK(s->lookup_key("ntp::service_name").has_value(), "session after config");
  }

  tu_free_expected(&expected);
  std::cout << "test_hiera_cpp: " << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}
