# The JSON coding the differential tests' oracles speak (see wire.rs):
# plain JSON, except
#   {"__type__": "Hash", "entries": [[k, v], ...]}  a Hash (any keys, in order)
#   {"__type__": "Symbol", "name": "..."}           a Symbol
#   {"__type__": "Bytes", "hex": "..."}             a binary (ASCII-8BIT) String

def decode(v)
  case v
  when Array
    v.map { |e| decode(e) }
  when Hash
    case v['__type__']
    when 'Hash'
      h = {}
      v['entries'].each { |k, e| h[decode(k)] = decode(e) }
      h
    when 'Symbol'
      v['name'].to_sym
    when 'Bytes'
      [v['hex']].pack('H*')
    else
      raise ArgumentError, "unknown wrapper #{v.inspect}"
    end
  else
    v
  end
end

def encode(v, depth = 0)
  raise 'result too deep (cycle?)' if depth > 64
  case v
  when Hash
    { '__type__' => 'Hash', 'entries' => v.map { |k, e| [encode(k, depth + 1), encode(e, depth + 1)] } }
  when Array
    v.map { |e| encode(e, depth + 1) }
  when Symbol
    { '__type__' => 'Symbol', 'name' => v.to_s }
  when String
    if v.encoding == Encoding::BINARY && !v.ascii_only?
      { '__type__' => 'Bytes', 'hex' => v.unpack1('H*') }
    elsif !v.valid_encoding?
      { '__type__' => 'Bytes', 'hex' => v.b.unpack1('H*') }
    else
      v.encode('UTF-8')
    end
  when Integer, Float, true, false, nil
    v
  else
    { '__type__' => 'Other', 'inspect' => v.inspect }
  end
end
