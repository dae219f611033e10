# Oracle for tests/deep_merge_differential.rs: runs the real deep_merge gem.
#
# Reads one JSON object per line:
#   {"source": V, "dest": V, "opts": {"preserve_unmergeables": bool, ...}}
# or, for a chain of merges as Puppet's deep merge strategy does them,
#   {"chain": [V0, V1, ...], "opts": {...}}
# (V0 merged into a deep clone of V1, that result into a deep clone of V2,
# ...; the first error ends the chain), and writes one JSON object per line:
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

# Puppet 7's DeepMergeStrategy#deep_clone (lib/puppet/pops/merge_strategy.rb):
# the destination of each merge of a lookup is cloned, the source is not.
def deep_clone(value)
  if value.is_a?(Hash)
    result = value.clone
    value.each { |k, v| result[k] = deep_clone(v) }
    result
  elsif value.is_a?(Array)
    value.map { |v| deep_clone(v) }
  else
    value
  end
end

# Puppet's MergeStrategy#lookup reduce over found values: the first is the
# memo, each later one the destination of `deep_merge!(memo, deep_clone(v))`.
def merge_chain(values, opts)
  values.drop(1).reduce(values.first) { |memo, v| DeepMerge.deep_merge!(memo, deep_clone(v), opts) }
end

$stdout.sync = false
$stdin.each_line do |line|
  next if line.strip.empty?
  c = JSON.parse(line)
  opts = {}
  OPTION_KEYS.each { |k| opts[k.to_sym] = c['opts'][k] if c['opts'].key?(k) }
  out =
    begin
      if c.key?('chain')
        { 'ok' => encode(merge_chain(c['chain'].map { |v| decode(v) }, opts)) }
      else
        { 'ok' => encode(DeepMerge.deep_merge!(decode(c['source']), decode(c['dest']), opts)) }
      end
    rescue StandardError => e
      { 'error' => { 'class' => e.class.name, 'message' => e.message } }
    end
  puts JSON.generate(out)
end
