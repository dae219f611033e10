# Oracle for tests/ruby_rules.rs: what Ruby itself prints, reads, encodes and
# compares, for the rules src/ruby/ writes down once.
#
# Reads one JSON object per line, {"op": OP, ...}, and writes one JSON value
# per line (values coded as in wire.rb):
#   inspect  {"v": V}     -> V.inspect
#   to_s     {"v": V}     -> "#{V}"
#   float    {"hex": H}   -> the big-endian double H, .to_s
#   parse    {"s": S}     -> Float(S) as big-endian hex, or null when it raises
#   encode64 {"hex": H}   -> [bytes].pack('m0')
#   unpack_m {"s": S}     -> S.unpack1('m') as hex
#   cmp      {"a": V, "b": V} -> V <=> V (-1, 0, 1 or null)
#   eq       {"a": V, "b": V} -> V == V
#   sort     {"v": [V]}   -> {"ok": sorted} or {"error": message}
#   to_yaml  {"v": V}     -> V.to_yaml
require 'json'
require 'yaml'
require_relative 'wire'

$stdin.each_line do |line|
  next if line.strip.empty?
  c = JSON.parse(line)
  out =
    case c['op']
    when 'inspect' then decode(c['v']).inspect
    when 'to_s' then "#{decode(c['v'])}"
    when 'to_yaml' then decode(c['v']).to_yaml
    when 'float' then [c['hex']].pack('H*').unpack1('G').to_s
    when 'parse'
      begin
        [Float(c['s'])].pack('G').unpack1('H*')
      rescue ArgumentError, TypeError
        nil
      end
    when 'encode64' then [[c['hex']].pack('H*')].pack('m0')
    when 'unpack_m' then c['s'].unpack1('m').unpack1('H*')
    when 'cmp' then decode(c['a']) <=> decode(c['b'])
    when 'eq' then decode(c['a']) == decode(c['b'])
    when 'sort'
      begin
        { 'ok' => encode(decode(c['v']).sort) }
      rescue StandardError => e
        { 'error' => e.message }
      end
    else raise ArgumentError, "unknown op #{c['op']}"
    end
  puts JSON.generate(out)
end
