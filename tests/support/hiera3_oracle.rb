# Oracle for tests/hiera3_differential.rs: runs the real hiera 3.10 gem
# (with Debian's deep_merge) on generated inputs.
#
# Reads one JSON object per line and writes one per line:
#   {"op": "merge", "new": V, "old": V, "rt": V, "config": V}
#       Hiera::Backend.merge_answer(new, old, rt) with Hiera::Config holding
#       `config` (a Hash with Symbol keys)
#   {"op": "parse", "data": V, "scope": V, "extra": V, "table": V, "oo": V}
#       Hiera::Backend.parse_answer(data, scope, extra, {order_override: oo});
#       hiera()/alias() lookups are answered from `table` (found values are
#       parse_answer'ed with the lookup's context, as a backend does); the
#       key "oo" answers the order_override it was given
#   {"op": "sources", "hierarchy": V, "scope": V, "oo": V, "table": V}
#       Hiera::Backend.datasources(scope, oo, hierarchy) { |s| ... }
#   {"op": "split", "key": "..."}    Hiera::Util.split_key
#   {"op": "dig", "segments": [...], "value": V, "key": "..."}
#       Hiera::Backend.qualified_lookup (:no_such_key is {"ok": {"__type__": "NotFound"}})
#   {"op": "config", "text": "..."}  Hiera::Config.load(file) + load_backends
#   {"op": "session", "dir": "...", "steps": [...]}
#       one Hiera.new(config: 'hiera.yaml') in `dir`, then the steps in order,
#       without Backend.clear!: {"write": [path, text]}, {"remove": path},
#       {"lookup": key, "rt": V, "default": V (optional), "scope": V,
#       "oo": V}; answers the list of lookup outcomes
# Answers: {"ok": V} or {"error": {"class": "...", "message": "..."}}.
# Values V are plain JSON, except
#   {"__type__": "Hash", "entries": [[k, v], ...]}  a Hash (any keys, in order)
#   {"__type__": "Symbol", "name": "..."}           a Symbol
#   {"__type__": "Bytes", "hex": "..."}             a binary String
require 'json'
require 'tmpdir'
require 'fileutils'
require 'hiera'
require 'deep_merge'
require_relative 'wire'

Hiera.logger = 'noop'

$table = nil

# hiera() and alias() inside interpolations call Backend.lookup: answer
# from the table, interpolating the found value with the lookup's context
# (so the recursion guard is shared), as the yaml backend does. Without a
# table (sessions) the gem's own lookup runs.
module Hiera::Backend
  class << self
    alias_method :gem_lookup, :lookup

    def lookup(key, default, scope, order_override, resolution_type, context = { recurse_guard: nil })
      return gem_lookup(key, default, scope, order_override, resolution_type, context) if $table.nil?
      return order_override if key == 'oo'
      return default unless $table.key?(key)
      parse_answer($table[key], scope, {}, context)
    end
  end
end

def run(c)
  case c['op']
  when 'merge'
    Hiera::Config.instance_variable_set(:@config, decode(c['config']))
    Hiera::Backend.merge_answer(decode(c['new']), decode(c['old']), decode(c['rt']))
  when 'parse'
    $table = decode(c['table'])
    Hiera::Backend.parse_answer(decode(c['data']), decode(c['scope']), decode(c['extra']),
                                { recurse_guard: nil, order_override: decode(c['oo']) })
  when 'sources'
    $table = decode(c['table'])
    out = []
    Hiera::Backend.datasources(decode(c['scope']), decode(c['oo']), decode(c['hierarchy'])) { |s| out << s }
    out
  when 'split'
    r = Hiera::Util.split_key(c['key']) { |problem| ArgumentError.new(problem) }
    r.is_a?(String) ? { '__type__' => 'EmptyKey' } : r
  when 'dig'
    found = false
    v = catch(:no_such_key) do
      r = Hiera::Backend.qualified_lookup(c['segments'], decode(c['value']), c['key'])
      found = true
      r
    end
    found ? v : { '__type__' => 'NotFound' }
  when 'config'
    Dir.mktmpdir do |d|
      path = File.join(d, 'hiera.yaml')
      File.binwrite(path, c['text'])
      begin
        config = Hiera::Config.load(path)
        Hiera::Config.load_backends
        config
      rescue Exception => e # rubocop:disable Lint/RescueException
        # the file is named as the Rust side names it
        raise StandardError, e.message.gsub(path, 'hiera.yaml')
      ensure
        Hiera.logger = 'noop'
      end
    end
  when 'session'
    $table = nil
    session(c)
  else
    raise "unknown op #{c['op']}"
  end
end

NOT_FOUND = Object.new.freeze

def session(c)
  Hiera::Backend.clear!
  Dir.chdir(c['dir']) do
    hiera = Hiera.new(config: 'hiera.yaml')
    Hiera.logger = 'noop'
    c['steps'].filter_map do |s|
      if s['write']
        FileUtils.mkdir_p(File.dirname(s['write'][0]))
        File.binwrite(s['write'][0], s['write'][1])
        nil
      elsif s['remove']
        File.delete(s['remove'])
        nil
      else
        begin
          default = s.key?('default') ? decode(s['default']) : NOT_FOUND
          v = hiera.lookup(s['lookup'], default, decode(s['scope']), decode(s['oo']), decode(s['rt']))
          v.equal?(NOT_FOUND) ? { 'not_found' => true } : { 'ok' => encode(v) }
        rescue Exception => e # rubocop:disable Lint/RescueException
          raise if e.is_a?(SystemExit) || e.is_a?(Interrupt) || e.is_a?(NoMemoryError)
          { 'error' => e.message }
        end
      end
    end
  end
ensure
  Hiera::Backend.clear!
end

$stdout.sync = false
$stdin.each_line do |line|
  next if line.strip.empty?
  c = JSON.parse(line)
  out =
    begin
      r = run(c)
      r = encode(r) unless c['op'] == 'session' || (r.is_a?(Hash) && r['__type__'].is_a?(String) && %w[NotFound EmptyKey].include?(r['__type__']))
      { 'ok' => r }
    rescue Exception => e # rubocop:disable Lint/RescueException -- hiera raises plain Exception
      raise if e.is_a?(SystemExit) || e.is_a?(Interrupt) || e.is_a?(NoMemoryError)
      { 'error' => { 'class' => e.class.name, 'message' => e.message } }
    end
  puts JSON.generate(out)
end
