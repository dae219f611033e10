# Oracle for tests/deep_merge_differential.rs: runs the real deep_merge gem.
#
# Reads one JSON object per line:
#   {"source": V, "dest": V, "opts": {"preserve_unmergeables": bool, ...}}
# and writes one JSON object per line:
#   {"ok": V}  or  {"error": {"class": "...", "message": "..."}}
# Values V are plain JSON, except
#   {"__type__": "Hash", "entries": [[k, v], ...]}  a Hash (any keys, in order)
#   {"__type__": "Symbol", "name": "..."}           a Symbol
#   {"__type__": "Bytes", "hex": "..."}             a binary (ASCII-8BIT) String
require 'json'
require 'deep_merge'
require_relative 'wire'

OPTION_KEYS = %w[preserve_unmergeables knockout_prefix overwrite_arrays sort_merged_arrays
                 unpack_arrays merge_hash_arrays extend_existing_arrays].freeze

$stdout.sync = false
$stdin.each_line do |line|
  next if line.strip.empty?
  c = JSON.parse(line)
  source = decode(c['source'])
  dest = decode(c['dest'])
  opts = {}
  OPTION_KEYS.each { |k| opts[k.to_sym] = c['opts'][k] if c['opts'].key?(k) }
  out =
    begin
      { 'ok' => encode(DeepMerge.deep_merge!(source, dest, opts)) }
    rescue StandardError => e
      { 'error' => { 'class' => e.class.name, 'message' => e.message } }
    end
  puts JSON.generate(out)
end
