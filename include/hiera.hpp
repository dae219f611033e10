/*
 * hiera.hpp: a header-only C++17 wrapper over hiera.h (libhiera's C ABI).
 *
 *   libhiera::config  owns a `hiera *` (hiera_open / hiera_free)
 *   libhiera::session owns a `hiera_session *` (hiera_session_new / _free)
 *   libhiera::error   thrown for every status but HIERA_OK and
 *                     HIERA_NOT_FOUND; carries the status and the error
 *                     object (JSON), with its kind and message decoded
 *
 * Handles are std::unique_ptr with deleters that call the C destructors, and
 * every string libhiera returns is taken into a std::string and freed with
 * hiera_string_free at once. Thread safety is the C ABI's: one config and
 * one session may be used by many threads at once (the methods are const).
 *
 *   libhiera::config cfg(R"({"hiera_config": "hiera.yaml"})");
 *   libhiera::session node(cfg, R"({"trusted": {"certname": "web01"}})");
 *   std::optional<std::string> v = node.lookup_key("ntp::servers");  // JSON
 *
 * The namespace is `libhiera` because the C type `hiera` already names the
 * configuration handle.
 */
#ifndef HIERA_HPP
#define HIERA_HPP

#include "hiera.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace libhiera {

namespace detail {

struct string_deleter {
  void operator()(char *s) const noexcept { hiera_string_free(s); }
};
struct config_deleter {
  void operator()(::hiera *h) const noexcept { hiera_free(h); }
};
struct session_deleter {
  void operator()(::hiera_session *s) const noexcept { hiera_session_free(s); }
};

/// Takes ownership of a string returned by libhiera: copies it and frees it.
inline std::string take(char *s) {
  std::unique_ptr<char, string_deleter> owned(s);
  return owned ? std::string(owned.get()) : std::string();
}

inline void put_utf8(std::string &out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

inline std::uint32_t hex4(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = at; i < at + 4 && i < s.size(); i++) {
    char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
  }
  return v;
}

/// The decoded string value of top-level member `name` of an error object as
/// libhiera writes it (compact; its string members come first), or "".
inline std::string string_member(std::string_view json, std::string_view name) {
  std::string needle = "\"" + std::string(name) + "\":\"";
  std::size_t at = json.find(needle);
  if (at == std::string_view::npos) return {};
  std::string out;
  for (std::size_t i = at + needle.size(); i < json.size() && json[i] != '"'; i++) {
    if (json[i] != '\\' || i + 1 >= json.size()) {
      out += json[i];
      continue;
    }
    char e = json[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        std::uint32_t c = hex4(json, i + 1);
        i += 4;
        if (c >= 0xD800 && c < 0xDC00 && i + 6 < json.size() && json[i + 1] == '\\' &&
            json[i + 2] == 'u') {
          std::uint32_t lo = hex4(json, i + 3);
          if (lo >= 0xDC00 && lo < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        put_utf8(out, c);
        break;
      }
      default: out += e;  // \" \\ \/
    }
  }
  return out;
}

}  // namespace detail

/// A failed call: its status and, where libhiera wrote one, the error object
/// `{"kind", "message", "file"?, "line"?}` as JSON. `what()` is the message.
class error : public std::runtime_error {
 public:
  error(hiera_status status, std::string json)
      : std::runtime_error(describe(status, json)), status_(status), json_(std::move(json)) {}

  /// The status the call returned.
  hiera_status status() const noexcept { return status_; }
  /// The error object as JSON, or "" (HIERA_NULL_ARGUMENT, HIERA_PANIC).
  const std::string &json() const noexcept { return json_; }
  /// The error object's kind ("parse", "config", "invalid_argument", ...).
  std::string kind() const { return detail::string_member(json_, "kind"); }
  /// The error object's file, or "".
  std::string file() const { return detail::string_member(json_, "file"); }

 private:
  static std::string describe(hiera_status status, const std::string &json) {
    std::string message = detail::string_member(json, "message");
    if (!message.empty()) return message;
    switch (status) {
      case HIERA_NULL_ARGUMENT: return "libhiera: a NULL argument";
      case HIERA_PANIC: return "libhiera: an internal error (panic) was caught";
      default: return "libhiera: status " + std::to_string(static_cast<int>(status));
    }
  }

  hiera_status status_;
  std::string json_;
};

/// Quotes `s` as a JSON string (for building requests).
inline std::string json_quote(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

/// An opened configuration (hiera_open). Move-only; shareable by threads.
class config {
 public:
  /// Opens a configuration from options JSON (see hiera_open). Throws
  /// libhiera::error, or std::runtime_error on a header/library mismatch.
  explicit config(const std::string &options_json = "{}") {
    if (hiera_abi_version() != HIERA_ABI_VERSION)
      throw std::runtime_error("libhiera: the library's ABI version differs from hiera.h's");
    ::hiera *h = nullptr;
    char *err = nullptr;
    hiera_status st = hiera_open(options_json.c_str(), &h, &err);
    if (st != HIERA_OK) throw error(st, detail::take(err));
    handle_.reset(h);
  }

  /// The C handle, still owned by this object.
  const ::hiera *get() const noexcept { return handle_.get(); }

 private:
  std::unique_ptr<::hiera, detail::config_deleter> handle_;
};

/// A scope bound to a configuration (hiera_session_new). Move-only; many
/// threads may look up through one session at once. It keeps its
/// configuration alive: the config object may be destroyed first.
class session {
 public:
  /// Makes a session for `scope_json`, the variable map. Throws
  /// libhiera::error.
  explicit session(const config &cfg, const std::string &scope_json = "{}") {
    ::hiera_session *s = nullptr;
    char *err = nullptr;
    hiera_status st = hiera_session_new(cfg.get(), scope_json.c_str(), &s, &err);
    if (st != HIERA_OK) throw error(st, detail::take(err));
    handle_.reset(s);
  }

  /// Looks up a request object (see hiera_lookup). Returns result_json:
  /// the value as JSON when found, std::nullopt when not found, and the
  /// response object {"value"|"not_found", "explain"} when the request asked
  /// for an explanation. Throws libhiera::error on any failure.
  std::optional<std::string> lookup(const std::string &request_json) const {
    char *out = nullptr;
    hiera_status st = hiera_lookup(handle_.get(), request_json.c_str(), &out);
    bool has_result = out != nullptr;
    std::string text = detail::take(out);
    if (st == HIERA_OK || (st == HIERA_NOT_FOUND && has_result)) return text;
    if (st == HIERA_NOT_FOUND) return std::nullopt;
    throw error(st, std::move(text));
  }

  /// Looks up one key with Puppet's defaults (first found, no default)
  /// through hiera_lookup_key: the value as JSON, or std::nullopt when not
  /// found. Throws libhiera::error on any failure.
  std::optional<std::string> lookup_key(std::string_view key) const {
    char *out = nullptr;
    hiera_status st = hiera_lookup_key(handle_.get(), key.data(), key.size(), &out);
    std::string text = detail::take(out);
    if (st == HIERA_OK) return text;
    if (st == HIERA_NOT_FOUND) return std::nullopt;
    throw error(st, std::move(text));
  }

  /// Looks up an array of requests in one call (see hiera_lookup_many) and
  /// returns the array of responses. Throws libhiera::error when the input is
  /// not an array of JSON values (single entries carry their own errors).
  std::string lookup_many(const std::string &requests_json) const {
    char *out = nullptr;
    hiera_status st = hiera_lookup_many(handle_.get(), requests_json.c_str(), &out);
    std::string text = detail::take(out);
    if (st != HIERA_OK) throw error(st, std::move(text));
    return text;
  }

  /// The C handle, still owned by this object.
  ::hiera_session *get() const noexcept { return handle_.get(); }

 private:
  std::unique_ptr<::hiera_session, detail::session_deleter> handle_;
};

}  // namespace libhiera

#endif /* HIERA_HPP */
