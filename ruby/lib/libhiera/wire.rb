# frozen_string_literal: true

require 'json'

module Libhiera
  # A Puppet `Sensitive` value outside Puppet (inside Puppet, lookups give
  # Puppet's own `Puppet::Pops::Types::PSensitiveType::Sensitive`).
  class Sensitive
    def initialize(value)
      @value = value
    end

    # The wrapped value.
    def unwrap
      @value
    end

    def to_s
      'Sensitive [value redacted]'
    end
    alias inspect to_s

    def ==(other)
      other.is_a?(Sensitive) && other.unwrap == @value
    end
    alias eql? ==

    def hash
      [Sensitive, @value].hash
    end
  end

  # Another Puppet rich data value (`SemVer`, `Timestamp`, `Timespan`,
  # `Type`, `Regexp`) outside Puppet: its type name and Puppet's string form.
  Rich = Struct.new(:type, :value) do
    def to_s
      value.to_s
    end
  end

  # The wire format of the C ABI: JSON with `{"__type__": ...}` objects for
  # what JSON cannot say (see the crate's README, "Batch mode and the JSON
  # wire format"). {load} turns wire JSON into Ruby values, {dump} Ruby
  # values into wire JSON:
  #
  #   Float NaN/Infinity   {"__type__": "Float", "value": "NaN" | "Infinity" | "-Infinity"}
  #   Symbol               {"__type__": "Symbol", "value": "name"}
  #   binary String        {"__type__": "Binary", "value": "<base64>"} (a String that is not UTF-8)
  #   Sensitive            {"__type__": "Sensitive", "value": <value>}
  #   Hash, any key        {"__type__": "Hash", "entries": [[k, v], ...]} (a key that is not a String)
  #   SemVer, Timestamp... {"__type__": "SemVer", "value": "1.2.3"}
  module Wire
    TYPE = '__type__'
    MARK = '"__type__"'
    UTF_8 = Encoding::UTF_8
    BINARY = Encoding::BINARY

    # Raised by {dump} with `strict: true` for an object the wire cannot
    # carry exactly.
    class Unrepresentable < StandardError; end

    module_function

    INTEGER = /\A-?[0-9]+\z/.freeze

    # Wire JSON text to a Ruby value. `objects`: the table of the objects
    # {dump} sent as references (`{"__type__": "Object", "value": "<index>"}`).
    def load(text, objects = nil)
      text = text.dup.force_encoding(UTF_8) unless text.encoding == UTF_8
      # Scalars, most lookups' answers, without the JSON parser: a literal, a
      # String with no escape (the bytes between its two quotes, the only
      # ones), an Integer.
      case text
      when 'true' then return true
      when 'false' then return false
      when 'null' then return nil
      end
      first = text.getbyte(0)
      if first == 34 # "
        # (index, not count: String#count builds a character table per
        # call in JRuby; index and length count characters)
        last = text.bytesize - 1
        if last.positive? && text.getbyte(last) == 34 && !text.include?('\\') && text.index('"', 1) == text.length - 1
          return text.byteslice(1, last - 1)
        end
      elsif first == 45 || (first && first >= 48 && first <= 57) # - 0-9
        return text.to_i if INTEGER.match?(text)
      end
      value = parse(text)
      text.include?(MARK) ? decode(value, objects) : value
    end

    # Answers are kept by their text, parsed once: the same keys give the
    # same answers in every compile (and mostly for every node), and JSON
    # parsing and the objects it makes cost more than the rest of a
    # lookup's Ruby in JRuby. Only plain data (no `__type__` object, whose
    # references are the caller's) of at least ANSWER_MIN_BYTES; at most
    # ANSWERS_MAX_BYTES of text are kept (then the cache starts again).
    ANSWER_MIN_BYTES = 64
    ANSWERS_MAX_BYTES = 8 * 1024 * 1024
    # MRI: Hash#[] and #[]= with String keys are atomic under the GVL;
    # JRuby's Hash needs a lock.
    ANSWERS_LOCK = RUBY_ENGINE == 'ruby' ? nil : Mutex.new
    @answers = {}
    @answers_bytes = 0

    # {load} for the answer of a lookup, through the answer cache. What it
    # returns is the caller's: Arrays and Hashes are new for each call, as
    # Puppet's interpolation makes them new for each lookup, and the Strings
    # and other values in them are shared by the calls that gave the same
    # text, as Puppet's lookups share the values of the data files it keeps
    # (`fresh`).
    def load_answer(text, objects = nil)
      first = text.getbyte(0)
      return load(text, objects) unless (first == 123 || first == 91) && text.bytesize >= ANSWER_MIN_BYTES

      entry = ANSWERS_LOCK ? ANSWERS_LOCK.synchronize { @answers[text] } : @answers[text]
      return entry[1] ? fresh(entry[0]) : entry[0].dup if entry
      return load(text, objects) if text.include?(MARK)

      text = text.dup.force_encoding(UTF_8) unless text.encoding == UTF_8
      value = parse(text)
      nested = nested?(value)
      entry = [value, nested].freeze
      if ANSWERS_LOCK
        ANSWERS_LOCK.synchronize { keep_answer(text, entry) }
      else
        keep_answer(text, entry)
      end
      nested ? fresh(value) : value.dup
    end

    # The cached answer of `text`, shared by every caller, or nil (for
    # loops that copy only the parts they hand out: {fresh}).
    def shared_answer(text)
      first = text.getbyte(0)
      return nil unless (first == 123 || first == 91) && text.bytesize >= ANSWER_MIN_BYTES

      entry = ANSWERS_LOCK ? ANSWERS_LOCK.synchronize { @answers[text] } : @answers[text]
      return entry[0] if entry
      return nil if text.include?(MARK)

      text = text.dup.force_encoding(UTF_8) unless text.encoding == UTF_8
      value = parse(text)
      entry = [value, nested?(value)].freeze
      if ANSWERS_LOCK
        ANSWERS_LOCK.synchronize { keep_answer(text, entry) }
      else
        keep_answer(text, entry)
      end
      value
    end

    # The kinds of answer in an {answers_table}.
    ANSWER_VALUE = 0 # a value handed out as it is (not an Array or Hash)
    ANSWER_COPY = 1 # a shared Array or Hash: handed out through {fresh}
    ANSWER_MISSING = 2 # not found
    ANSWER_ERROR = 3 # failed: the answer (a Hash with its "error")

    @tables = {}
    @tables_bytes = 0

    # The answers of a `hiera_lookup_keys` call (its JSON text) as a table,
    # `[values, kinds]`: for each key its value (or, for an error, its
    # answer) and its kind (ANSWER_*), read in a loop with no Hash read per
    # answer. Tables of plain data (no `__type__` object, whose references
    # are the caller's) are kept by their text and shared by every caller,
    # as {shared_answer}'s answers (at most ANSWERS_MAX_BYTES of text, then
    # the cache starts again): the caller hands out ANSWER_COPY values
    # through {fresh} and changes nothing. `objects`: as {load}.
    def answers_table(text, objects = nil)
      table = ANSWERS_LOCK ? ANSWERS_LOCK.synchronize { @tables[text] } : @tables[text]
      return table if table
      return table_of(load(text, objects)) if text.include?(MARK)

      text = text.dup.force_encoding(UTF_8) unless text.encoding == UTF_8
      table = table_of(parse(text))
      if ANSWERS_LOCK
        ANSWERS_LOCK.synchronize { keep_table(text, table) }
      else
        keep_table(text, table)
      end
      table
    end

    # The {answers_table} of parsed answers (an Array of Hashes, each with
    # its key's `"value"`, or an `"error"`, or neither).
    def table_of(answers)
      n = answers.size
      values = Array.new(n)
      kinds = Array.new(n)
      i = 0
      while i < n
        resp = answers[i]
        if resp.key?('error')
          values[i] = resp
          kinds[i] = ANSWER_ERROR
        elsif resp.key?('value')
          v = values[i] = resp['value']
          kinds[i] = v.instance_of?(Hash) || v.instance_of?(Array) ? ANSWER_COPY : ANSWER_VALUE
        else
          kinds[i] = ANSWER_MISSING
        end
        i += 1
      end
      [values.freeze, kinds.freeze].freeze
    end

    def keep_table(text, table)
      if @tables_bytes + text.bytesize > ANSWERS_MAX_BYTES
        @tables = {}
        @tables_bytes = 0
      end
      @tables_bytes += text.bytesize
      @tables[text.frozen? ? text : text.dup.freeze] = table
    end

    def keep_answer(text, entry)
      if @answers_bytes + text.bytesize > ANSWERS_MAX_BYTES
        @answers = {}
        @answers_bytes = 0
      end
      @answers_bytes += text.bytesize
      @answers[text] = entry
    end

    # Forgets the kept answers (tests).
    def forget_answers
      ANSWERS_LOCK ? ANSWERS_LOCK.synchronize { @answers = {} } : (@answers = {})
      @answers_bytes = 0
      ANSWERS_LOCK ? ANSWERS_LOCK.synchronize { @tables = {} } : (@tables = {})
      @tables_bytes = 0
    end

    # Whether an Array or Hash holds an Array or Hash.
    def nested?(v)
      if v.instance_of?(Hash)
        v.each_value { |e| return true if e.instance_of?(Hash) || e.instance_of?(Array) }
      elsif v.instance_of?(Array)
        v.each { |e| return true if e.instance_of?(Hash) || e.instance_of?(Array) }
      end
      false
    end

    # A copy of a parsed value with new Arrays and Hashes and the same
    # Strings, numbers, booleans and nils.
    def fresh(v)
      if v.instance_of?(Hash)
        h = v.dup
        v.each_pair { |k, e| h[k] = fresh(e) if e.instance_of?(Hash) || e.instance_of?(Array) }
        h
      elsif v.instance_of?(Array)
        a = v.dup
        i = 0
        n = a.size
        while i < n
          e = a[i]
          a[i] = fresh(e) if e.instance_of?(Hash) || e.instance_of?(Array)
          i += 1
        end
        a
      else
        v
      end
    end

    # JSON.parse without options (passing any costs more than parsing a
    # short answer) unless the text nests deeper than its default limit.
    def parse(text)
      JSON.parse(text)
    rescue JSON::NestingError
      JSON.parse(text, max_nesting: false)
    end

    # Decodes the `__type__` objects of a parsed wire value (in place).
    def decode(v, objects = nil)
      case v
      when Array
        v.map! { |e| decode(e, objects) }
      when Hash
        tag = v[TYPE]
        return tagged(tag, v, objects) if tag.is_a?(String) && v.size == 2
        v.each_pair { |k, e| v[k] = decode(e, objects) if e.is_a?(Array) || e.is_a?(Hash) }
        v
      else
        v
      end
    end

    def tagged(tag, v, objects = nil)
      value = v['value']
      case tag
      when 'Float'
        case value
        when 'NaN' then Float::NAN
        when 'Infinity' then Float::INFINITY
        when '-Infinity' then -Float::INFINITY
        else Float(value)
        end
      when 'Symbol' then value.to_sym
      when 'Binary' then value.unpack1('m0')
      when 'Sensitive' then Libhiera.sensitive(decode(value, objects))
      when 'Hash'
        h = {}
        v['entries'].each { |k, e| h[decode(k, objects)] = decode(e, objects) }
        h
      when 'SemVer', 'Timestamp', 'Timespan', 'Type', 'Regexp' then Libhiera.rich(tag, value)
      when 'Object'
        objects && /\A[0-9]+\z/.match?(value) && Integer(value) < objects.size ? objects[Integer(value)] : Libhiera.rich(tag, value)
      else
        v.each_pair { |k, e| v[k] = decode(e, objects) }
        v
      end
    end

    # A Ruby value to wire JSON text. With `strict: true` an object the wire
    # cannot carry exactly raises {Unrepresentable}; otherwise it is sent as
    # `{"__type__": "<class>", "value": "<to_s>"}`. With `objects` (an
    # Array) such an object is added to it and sent as a reference,
    # `{"__type__": "Object", "value": "<index>"}`, which libhiera carries as
    # it is and {load} with the same table gives back.
    def dump(value, strict: false, objects: nil)
      # Plain data (the common case) goes to the JSON generator as it is.
      JSON.generate(plain?(value) ? value : prepare(value, objects || strict), max_nesting: false)
    end

    # Whether JSON.generate says everything about `v` by itself: no Symbol,
    # no non-String key, no NaN or Infinity, no String that is not UTF-8
    # text, nothing else. Allocates nothing.
    def plain?(v)
      if v.instance_of?(Hash)
        v.each_pair do |k, e|
          return false unless k.instance_of?(String) && (k.encoding == UTF_8 ? k.valid_encoding? : k.ascii_only?) && plain?(e)
        end
        true
      elsif v.instance_of?(String) then v.encoding == UTF_8 ? v.valid_encoding? : v.ascii_only?
      elsif v.instance_of?(Array)
        v.each { |e| return false unless plain?(e) }
        true
      elsif v.instance_of?(Integer) || v.nil? || v == true || v == false then true
      elsif v.instance_of?(Float) then v.finite?
      else false
      end
    end

    # The JSON-able form of a value.
    def prepare(v, strict = false)
      case v
      when String then string(v)
      when Integer, true, false, nil then v
      when Float then v.finite? ? v : { TYPE => 'Float', 'value' => (v.nan? ? 'NaN' : (v.positive? ? 'Infinity' : '-Infinity')) }
      when Symbol then { TYPE => 'Symbol', 'value' => v.to_s }
      when Array then v.map { |e| prepare(e, strict) }
      when Hash
        if v.each_key.all? { |k| k.is_a?(String) && k.encoding == UTF_8 && k.valid_encoding? }
          h = {}
          v.each_pair { |k, e| h[k] = prepare(e, strict) }
          h
        else
          { TYPE => 'Hash', 'entries' => v.map { |k, e| [prepare(k, strict), prepare(e, strict)] } }
        end
      when Libhiera::Sensitive then { TYPE => 'Sensitive', 'value' => prepare(v.unwrap, strict) }
      when Libhiera::Rich then { TYPE => v.type, 'value' => v.value }
      else special(v, strict)
      end
    end

    def string(s)
      enc = s.encoding
      if enc == UTF_8
        s.valid_encoding? ? s : binary(s)
      elsif enc == BINARY || enc == Encoding::US_ASCII
        return s if s.ascii_only?
        u = s.dup.force_encoding(UTF_8)
        u.valid_encoding? ? u : binary(s)
      else
        begin
          s.encode(UTF_8)
        rescue EncodingError
          binary(s)
        end
      end
    end

    def binary(s)
      { TYPE => 'Binary', 'value' => [s.b].pack('m0') }
    end

    def special(v, strict)
      if defined?(::Puppet::Pops::Types::PSensitiveType::Sensitive) && v.is_a?(::Puppet::Pops::Types::PSensitiveType::Sensitive)
        return { TYPE => 'Sensitive', 'value' => prepare(v.unwrap, strict) }
      end
      if defined?(::SemanticPuppet::Version) && v.is_a?(::SemanticPuppet::Version)
        return { TYPE => 'SemVer', 'value' => v.to_s }
      end
      if defined?(::Puppet::Pops::Time::Timestamp)
        return { TYPE => 'Timestamp', 'value' => v.to_s } if v.is_a?(::Puppet::Pops::Time::Timestamp)
        return { TYPE => 'Timespan', 'value' => v.to_s } if v.is_a?(::Puppet::Pops::Time::Timespan)
      end
      return { TYPE => 'Type', 'value' => v.to_s } if defined?(::Puppet::Pops::Types::PAnyType) && v.is_a?(::Puppet::Pops::Types::PAnyType)
      return { TYPE => 'Regexp', 'value' => v.source } if v.is_a?(Regexp)
      if strict.is_a?(Array)
        strict << v
        return { TYPE => 'Object', 'value' => (strict.size - 1).to_s }
      end
      raise Unrepresentable, "libhiera cannot pass a #{v.class} exactly" if strict

      { TYPE => v.class.name.to_s, 'value' => v.to_s }
    end
  end

  # A Sensitive value: Puppet's own inside Puppet, {Libhiera::Sensitive}
  # elsewhere.
  def self.sensitive(value)
    if defined?(::Puppet::Pops::Types::PSensitiveType::Sensitive)
      ::Puppet::Pops::Types::PSensitiveType::Sensitive.new(value)
    else
      Sensitive.new(value)
    end
  end

  # A rich data value: Puppet's own object where Puppet is loaded (a
  # `SemanticPuppet::Version`, a `Puppet::Pops::Time::Timestamp`, a Puppet
  # type), a Ruby Regexp for a Regexp, else a {Libhiera::Rich}.
  def self.rich(type, value)
    begin
      case type
      when 'Regexp' then return Regexp.new(value)
      when 'SemVer' then return ::SemanticPuppet::Version.parse(value) if defined?(::SemanticPuppet::Version)
      when 'Timestamp' then return ::Puppet::Pops::Time::Timestamp.parse(value) if defined?(::Puppet::Pops::Time::Timestamp)
      when 'Timespan' then return ::Puppet::Pops::Time::Timespan.parse(value) if defined?(::Puppet::Pops::Time::Timespan)
      when 'Type' then return ::Puppet::Pops::Types::TypeParser.singleton.parse(value) if defined?(::Puppet::Pops::Types::TypeParser)
      end
    rescue StandardError, SyntaxError
      # not Puppet's form: keep the text
    end
    Rich.new(type, value)
  end
end
