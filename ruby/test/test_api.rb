# frozen_string_literal: true

require_relative 'test_helper'
require 'rbconfig'
require 'open3'
require 'libhiera/hiera3'

# The Ruby API: loading, results, not found, typed errors, the wire
# conversions, closing, the garbage collector and threads.
class TestApi < Minitest::Test
  include TestSupport

  def example
    expected = JSON.parse(File.read(File.join(EXAMPLES, 'expected.json')))
    hiera = Libhiera::Hiera.new(hiera_config: File.join(EXAMPLES, 'hiera.yaml'),
                                environmentpath: File.join(EXAMPLES, 'environments'))
    [hiera, Libhiera::Wire.decode(expected['scope']), expected['results']]
  end

  def fixture(files)
    Dir.mktmpdir do |dir|
      files.each do |path, text|
        FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
        File.write(File.join(dir, path), text)
      end
      yield dir
    end
  end

  def ruby_with(env, code)
    Open3.capture3(env, RbConfig.ruby, '-I', File.expand_path('../lib', __dir__), '-e', code)
  end

  # ---------------------------------------------------------------- loading

  def test_the_library_is_loaded_and_checked
    assert_equal Libhiera::VERSION, Libhiera.library_version
    assert_equal Libhiera::ABI_VERSION, Libhiera::Native.hiera_abi_version
    assert File.exist?(Libhiera.library_path), Libhiera.library_path
  end

  def test_libhiera_path_may_name_a_directory_or_a_missing_file
    dir = File.dirname(Libhiera.library_path)
    out, err, st = ruby_with({ 'LIBHIERA_PATH' => dir }, 'require "libhiera"; print Libhiera.library_path')
    assert st.success?, err
    assert_equal File.join(dir, 'libhiera.so'), out
    _, err, st = ruby_with({ 'LIBHIERA_PATH' => '/nonexistent/libhiera.so' }, 'require "libhiera"')
    refute st.success?
    assert_match(/Libhiera::LibraryError/, err)
    assert_match(%r{cannot load the shared library \(tried /nonexistent/libhiera.so\)}, err)
  end

  def test_an_abi_mismatch_is_refused_at_load
    cc = ENV.fetch('CC', 'cc')
    skip 'no C compiler' unless system("command -v #{cc} >/dev/null 2>&1")
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'fake.c'), "unsigned hiera_abi_version(void) { return 99; }\nconst char *hiera_version(void) { return \"9.9.9\"; }\n")
      assert system(cc, '-shared', '-fPIC', '-o', File.join(dir, 'libhiera.so'), File.join(dir, 'fake.c'))
      _, err, st = ruby_with({ 'LIBHIERA_PATH' => File.join(dir, 'libhiera.so') }, 'require "libhiera"')
      refute st.success?
      assert_match(/has ABI version 99, this gem \(#{Regexp.escape(Libhiera::VERSION)}\) needs ABI version 0/, err)
    end
  end

  # ---------------------------------------------------------------- lookups

  def test_lookup_lookup_many_and_explain
    hiera, scope, results = example
    session = hiera.session(scope)
    results.each do |r|
      got = session.lookup(r['key'])
      if r['not_found']
        assert_same Libhiera::NOT_FOUND, got
      else
        assert_equal expected_wire(r['value']), wire(got), r['key']
      end
    end
    many = session.lookup_many(results.map { |r| r['key'] } + [{ key: 'no::such::key', default: 'dflt' }])
    assert_equal results.map { |r| r['not_found'] ? Libhiera::NOT_FOUND : r['value'] } + ['dflt'], many
    assert_equal %w[x], session.lookup('no::such::key', default: %w[x])
    assert_equal 'Welcome to web01.example.com, managed by Puppet', session.lookup(%w[no::such::key motd])
    assert_includes session.lookup('ntp::servers', merge: 'unique'), 'ntp.web01.local'
    assert_equal 'over', session.lookup('motd', override: { 'motd' => 'over' })
    assert_equal 1, session.lookup('x', default_values_hash: { 'x' => 1 })
    assert_equal({ 'strategy' => 'deep' }, JSON.parse(session.send(:request, 'k', { strategy: 'deep' }, nil, nil))['merge'])
    e = assert_raises(Libhiera::NotFoundError) { session.lookup!('no::such::key') }
    assert_equal "Function lookup() did not find a value for the name 'no::such::key'", e.message
    assert_includes session.explain('motd'), 'Searching for "motd"'
    assert_equal 'Libhiera::NOT_FOUND', Libhiera::NOT_FOUND.inspect
  end

  def test_overlays_and_lookup_keys
    files = {
      'hiera.yaml' => "version: 5\nhierarchy:\n  - name: mod\n    path: \"mod/%{module_name}.yaml\"\n  - name: c\n    path: c.yaml\n",
      'data/mod/ntp.yaml' => "ntp::servers: [ntp.example.com]\n",
      'data/c.yaml' => "ntp::servers: [pool]\nntp::greeting: \"%{local} on %{facts.host}\"\nntp::undef: ~\n",
    }
    fixture(files) do |dir|
      hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir)
      root = hiera.session({ 'facts' => { 'host' => 'web01' }, 'module_name' => '', 'local' => 'top' })
      assert_equal 'top on web01', root.lookup('ntp::greeting')
      ntp = root.overlay({ 'module_name' => 'ntp', 'local' => 'in ntp' })
      assert_equal [%w[ntp.example.com], Libhiera::NOT_FOUND, 'in ntp on web01', nil],
                   ntp.lookup_keys(%w[ntp::servers ntp::nope ntp::greeting ntp::undef])
      assert_equal %w[pool], root.lookup('ntp::servers')
      # An overlay of an overlay has both sets of variables.
      assert_equal 'again on web01', ntp.overlay({ 'local' => 'again' }).lookup('ntp::greeting')
      seen = []
      e = assert_raises(Libhiera::LookupError) { ntp.lookup_keys(['ntp::greeting', "bad'key", 'ntp::servers']) { |v, i| seen << [i, v] } }
      assert_includes e.message, "bad'key"
      assert_equal [[0, 'in ntp on web01']], seen
      assert_equal [], ntp.lookup_keys([])
      assert_raises(Libhiera::InvalidArgumentError) { root.overlay([1]) }
      # An overlay outlives its parent.
      root.close
      assert_equal 'in ntp on web01', ntp.lookup('ntp::greeting')
    end
  end

  def test_not_found_is_not_nil
    fixture('hiera.yaml' => "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n", 'data/c.yaml' => "nothing: ~\n") do |dir|
      s = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir).session({})
      assert_nil s.lookup('nothing')
      assert_nil s.lookup('nothing', default: 1)
      assert_same Libhiera::NOT_FOUND, s.lookup('missing')
      assert_equal [nil, Libhiera::NOT_FOUND], s.lookup_many(%w[nothing missing])
    end
  end

  # Session#share_answers (the Puppet hand-off's): an answer text seen
  # before is not parsed again; each lookup still gets its own Arrays and
  # Hashes (changing one changes no other lookup's value), and shares the
  # Strings, as Puppet shares the values of the data files it keeps.
  def test_shared_answers_give_each_lookup_new_arrays_and_hashes
    data = "big:\n  servers: [a.example.com, b.example.com]\n  opts: {x: [1, 2], y: {z: long value of the hash}}\n" \
           "  name: the big hash\nsmall: [1]\n"
    fixture('hiera.yaml' => "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n", 'data/c.yaml' => data) do |dir|
      hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir)
      plain = hiera.session({})
      expected = plain.lookup('big')
      refute_same expected['name'], plain.lookup('big')['name']
      shared = hiera.session({})
      shared.share_answers = true
      a = shared.lookup('big')
      b = shared.lookup('big')
      assert_equal expected, a
      assert_equal expected, b
      refute_same a, b
      refute_same a['opts'], b['opts']
      refute_same a['opts']['x'], b['opts']['x']
      assert_same a['name'], b['name']
      a['servers'] << 'c.example.com'
      a['opts']['y']['w'] = 1
      a['extra'] = true
      assert_equal expected, shared.lookup('big')
      assert_equal expected, shared.overlay({ 'v' => 1 }).lookup('big')
      # a class's batch
      first = shared.lookup_keys(%w[big small])
      first[0]['opts']['x'] << 3
      first[1] << 2
      assert_equal [expected, [1]], shared.lookup_keys(%w[big small])
    end
  end

  # Session#lookup_keys_table (the hand-off's class batch): each key's
  # value and kind (Wire::ANSWER_*) as lookup_keys_answers gives them; a
  # sharing session's table is kept per answer text (the same object for
  # the same answers), its Arrays and Hashes marked ANSWER_COPY (handed out
  # through Wire.fresh); an error's answer raises as lookup_keys raises.
  def test_lookup_keys_table_as_answers
    data = "big:\n  servers: [a.example.com, b.example.com]\n  name: the big hash\nword: hello\nnothing: ~\n" \
           "bad: \"%{lookup('bad')}\"\n"
    fixture('hiera.yaml' => "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n", 'data/c.yaml' => data) do |dir|
      hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir)
      text = Libhiera::Session.keys_text(%w[big word nothing missing])
      plain = hiera.session({})
      answers = plain.lookup_keys_answers(text, nil)
      table = plain.lookup_keys_table(text, nil)
      wire = Libhiera::Wire
      assert_equal [wire::ANSWER_COPY, wire::ANSWER_VALUE, wire::ANSWER_VALUE, wire::ANSWER_MISSING], table[1]
      assert_equal [answers[0]['value'], 'hello', nil, nil], table[0]
      refute_same table, plain.lookup_keys_table(text, nil)
      shared = hiera.session({})
      shared.share_answers = true
      kept = shared.lookup_keys_table(text, nil)
      assert_equal table, kept
      assert_same kept, shared.lookup_keys_table(text, nil)
      assert kept.frozen? && kept[0].frozen? && kept[1].frozen?
      copy = wire.fresh(kept[0][0])
      copy['servers'] << 'c.example.com'
      assert_equal answers[0]['value'], shared.lookup_keys_table(text, nil)[0][0]
      failing = shared.lookup_keys_table(Libhiera::Session.keys_text(%w[word bad word]), nil)
      assert_equal [wire::ANSWER_VALUE, wire::ANSWER_ERROR], failing[1]
      error = assert_raises(Libhiera::Error) { shared.lookup_keys(%w[word bad word]) }
      assert_equal error.message, shared.key_error(failing[0][1]).message
    end
  end

  # Session#own! (the Puppet hand-off's): lookups through lookup_request
  # and lookup_keys_answers call libhiera without Handle#use, with the
  # same answers; its overlays are owned; closing an owned session does not
  # free it under its owner; a closed session cannot be owned.
  def test_owned_sessions_answer_as_others
    hiera, scope, = example
    plain = hiera.session(scope)
    owned = hiera.session(scope).own!
    assert owned.owned?
    refute plain.owned?
    %w[ntp::service_name motd nope].each do |key|
      request = Libhiera::Session.key_request(key)
      assert_equal plain.lookup_request(request), owned.lookup_request(request), key
    end
    text = Libhiera::Session.keys_text(%w[ntp::service_name nope motd])
    assert_equal plain.lookup_keys_answers(text, nil), owned.lookup_keys_answers(text, nil)
    overlay = owned.overlay({ 'extra' => 1 })
    assert overlay.owned?
    assert_equal owned.lookup_request(Libhiera::Session.key_request('motd')),
                 overlay.lookup_request(Libhiera::Session.key_request('motd'))
    owned.close
    assert owned.closed?
    assert_equal 'ntpsec', owned.lookup_request(Libhiera::Session.key_request('ntp::service_name'))
    plain.close
    assert_raises(Libhiera::ClosedError) { plain.own! }
  end

  def test_lookup_all_answers_every_key_as_puppet
    dir = File.expand_path('../../tests/conformance/all_keys/every_key', __dir__)
    expected = JSON.parse(File.read(File.join(dir, 'expected.json')))
    hiera = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'),
                                environmentpath: File.join(dir, 'environments'))
    values, errors = hiera.session(expected['scope']).lookup_all
    assert_equal values.keys.sort, values.keys
    expected['results'].each do |r|
      key = r['key'].delete('"')
      if r['not_found']
        refute values.key?(key), key
        refute errors.key?(key), key
      elsif r['error']
        refute values.key?(key), key
        assert_kind_of Libhiera::Error, errors.fetch(key)
      else
        assert_equal expected_wire(r['value']), wire(values.fetch(key)), key
      end
    end
    assert_equal expected['results'].count { |r| r.key?('value') }, values.size
  end

  def test_errors_are_typed
    files = {
      'hiera.yaml' => "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n",
      'data/c.yaml' => "loop: \"%{lookup('loop')}\"\nbad: \"%{nope('x')}\"\ntyped: 1\n" \
                       "lookup_options:\n  secret:\n    convert_to: Sensitive\n  typed:\n    convert_to: Hash\nsecret: s3cret\n",
    }
    fixture(files) do |dir|
      s = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir).session({})
      e = assert_raises(Libhiera::RecursionError) { s.lookup('loop') }
      assert_equal 'recursion', e.kind
      assert_kind_of Libhiera::Error, e
      assert_kind_of StandardError, e
      assert_raises(Libhiera::InterpolationError) { s.lookup('bad') }
      assert_raises(Libhiera::LookupError) { s.lookup('typed') }
      secret = s.lookup('secret')
      assert_instance_of Libhiera::Sensitive, secret
      assert_equal 's3cret', secret.unwrap
      assert_equal 'Sensitive [value redacted]', secret.to_s
      assert_raises(Libhiera::InvalidArgumentError) { s.lookup('x', merge: 'sideways') }
    end
    fixture('hiera.yaml' => "version: 6\n") do |dir|
      s = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir).session({})
      e = assert_raises(Libhiera::ConfigError) { s.lookup('x') }
      assert_equal File.join(dir, 'hiera.yaml'), e.file
    end
    fixture('hiera.yaml' => "version: 5\n", 'data/common.yaml' => "a: [\n") do |dir|
      s = Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir).session({})
      assert_raises(Libhiera::ParseError) { s.lookup('a') }
    end
    e = assert_raises(Libhiera::InvalidArgumentError) { Libhiera::Hiera.new(environment: 'a/b') }
    assert_equal 'invalid_argument', e.kind
    assert_raises(Libhiera::InvalidArgumentError) { Libhiera::Hiera.new(strict: 'loud') }
    assert_raises(Libhiera::InvalidArgumentError) { Libhiera::Hiera.new(puppet: 6) }
    assert_raises(Libhiera::InvalidArgumentError) { Libhiera::Hiera.new.session([]) }
    # host_functions: libhiera's own functions only; one name or many
    e = assert_raises(Libhiera::InvalidArgumentError) { Libhiera::Hiera.new(host_functions: ['hocon']) }
    assert_match(/host_functions: 'hocon' is not a function libhiera runs itself/, e.message)
    refute_nil Libhiera::Hiera.new(host_functions: 'hocon_data')
    refute_nil Libhiera::Hiera.new(host_functions: %w[hocon_data eyaml_lookup_key])
    assert_raises(Libhiera::ConfigError) { Libhiera::Hiera3.new(config: '/nonexistent/hiera.yaml') }
    assert_raises(Libhiera::ParseError) { Libhiera.parse_data('yaml', '/x.yaml', "a: [\n") }
  end

  def test_puppet_8_defaults_to_strict_error
    fixture('hiera.yaml' => "version: 5\n", 'data/common.yaml' => "a: \"<%{nonesuch}>\"\n") do |dir|
      open = ->(**o) { Libhiera::Hiera.new(hiera_config: File.join(dir, 'hiera.yaml'), environmentpath: dir, **o).session({}) }
      assert_equal '<>', open.call.lookup('a')
      e = assert_raises(Libhiera::InterpolationError) { open.call(puppet: 8).lookup('a') }
      assert_equal "Undefined variable 'nonesuch'; ", e.message
      assert_equal '<>', open.call(puppet: 8, strict: 'warning').lookup('a')
      assert_raises(Libhiera::InterpolationError) { open.call(strict: :error).lookup('a') }
    end
  end

  def test_wire_round_trips_what_json_cannot_say
    value = {
      'nan' => Float::NAN, 'inf' => Float::INFINITY, 'ninf' => -Float::INFINITY, 'sym' => :s,
      'bin' => "\xff\xfe".b, 'utf8_bytes' => 'é'.b, 'keys' => { 1 => 'int', :sym => 'sym', nil => 'nil', [1] => 'array' },
      'secret' => Libhiera::Sensitive.new('x'), 'big' => 2**80, 'float' => 1.0e20, 'neg_zero' => -0.0,
      'latin1' => "caf\xE9".dup.force_encoding('ISO-8859-1')
    }
    back = Libhiera::Wire.load(Libhiera::Wire.dump(value))
    assert back['nan'].nan?
    assert_equal [Float::INFINITY, -Float::INFINITY, :s], back.values_at('inf', 'ninf', 'sym')
    assert_equal "\xff\xfe".b, back['bin']
    assert_equal Encoding::BINARY, back['bin'].encoding
    assert_equal 'é', back['utf8_bytes']
    assert_equal({ 1 => 'int', :sym => 'sym', nil => 'nil', [1] => 'array' }, back['keys'])
    assert_equal Libhiera::Sensitive.new('x'), back['secret']
    assert_equal [2**80, 1.0e20], back.values_at('big', 'float')
    assert_equal '-0.0', back['neg_zero'].to_s
    assert_equal 'café', back['latin1']
    assert_raises(Libhiera::Wire::Unrepresentable) { Libhiera::Wire.dump(Object.new, strict: true) }
    assert_equal 'Object', JSON.parse(Libhiera::Wire.dump(Object.new))['__type__']
  end

  # Wire.load answers scalars without the JSON parser: it must give what
  # the parser gives, class, encoding and all.
  def test_wire_load_fast_paths_agree_with_the_json_parser
    texts = ['true', 'false', 'null', '0', '-0', '7', '-42', '123456789012345678901234567890', '-98765432109876543210',
             '""', '"plain"', '"caf\u00e9"', %("caf\u00e9 \u2603"), '"a \\"quoted\\" word"', '"back\\\\slash"',
             '"tab\\t"', '"\\u00e9"', '"%{x}"', '1.5', '-0.0', '1e3', '[1,"a"]', '{"a":"b"}', '["\\"",""]',
             '{"__type__":"Symbol","value":"s"}', '{"__type__":"Float","value":"NaN"}', '"__type__"']
    texts.each do |t|
      t = t.dup.force_encoding(Encoding::UTF_8)
      want = Libhiera::Wire.decode(JSON.parse(t))
      got = Libhiera::Wire.load(t.dup)
      if want.is_a?(Float) && want.nan?
        assert got.nan?, t
        next
      end
      want.nil? ? assert_nil(got, t) : assert_equal(want, got, t)
      assert_equal want.class, got.class, t
      next unless want.is_a?(String)

      assert_equal Encoding::UTF_8, got.encoding, t
      assert got.valid_encoding?, t
      refute got.frozen?, t
    end
    from_c = %("caf\u00e9").b # what Native.take would not have retagged: UTF-8 bytes, binary
    assert_equal "caf\u00e9", Libhiera::Wire.load(from_c)
    assert_equal Encoding::UTF_8, Libhiera::Wire.load(from_c).encoding
    # Deeper than JSON.parse's default max_nesting (100): still read.
    deep = ('[' * 150) + '1' + (']' * 150)
    v = Libhiera::Wire.load(deep)
    150.times { v = v.first }
    assert_equal 1, v
    hdeep = ('{"k":' * 120) + '"v"' + ('}' * 120)
    v = Libhiera::Wire.load(hdeep)
    120.times { v = v.fetch('k') }
    assert_equal 'v', v
    ['"unterminated', '"', '"a"b"', '"a"+"b"', '12a', '--1'].each do |bad|
      assert_raises(JSON::ParserError, bad) { Libhiera::Wire.load(bad) }
    end
  end

  # Requests for a plain key come from a cache: they must be what the
  # uncached path builds, whatever the key's encoding, and the cache stays
  # bounded.
  def test_key_requests_are_memoized_exactly
    hiera, scope, = example
    session = hiera.session(scope)
    keys = ['motd', 'ntp::servers', "caf\u00e9", 'caf\u00e9', "caf\xE9".b, "caf\xE9".dup.force_encoding('ISO-8859-1'), 'motd'.b,
            'motd'.encode('US-ASCII'), "a\"b\\c", "nul\0inside", "\u2603.key", '']
    keys.each do |k|
      2.times do
        assert_equal session.send(:request, k, nil, nil, nil), Libhiera::Session.key_request(k), k.inspect
      end
    end
    # Same bytes in another encoding: the cached request of the first is not
    # given for the second.
    refute_equal Libhiera::Session.key_request("caf\xE9".b), Libhiera::Session.key_request("caf\xE9".dup.force_encoding('ISO-8859-1'))
    assert_equal 'Welcome to web01.example.com, managed by Puppet', session.lookup('motd'.b)
    assert_equal session.lookup('motd'), session.lookup(+'motd')
    # A NUL inside a key is escaped in the request, never cut at.
    assert_same Libhiera::NOT_FOUND, session.lookup("motd\0")
    key = +'mutable::key'
    request = Libhiera::Session.key_request(key)
    key << '::changed'
    assert_equal session.send(:request, 'mutable::key', nil, nil, nil), Libhiera::Session.key_request('mutable::key')
    assert_equal request, Libhiera::Session.key_request('mutable::key')
    cache = Libhiera::Session.instance_variable_get(:@key_requests)
    (Libhiera::Session::KEY_REQUESTS_MAX + 10).times { |i| Libhiera::Session.key_request("bound::#{i}") }
    assert_operator cache.size, :<=, Libhiera::Session::KEY_REQUESTS_MAX
    assert_equal %({"key":"bound::1"}), Libhiera::Session.key_request('bound::1')
  end

  # A String key alone goes to hiera_lookup_key when it is valid UTF-8 (other
  # keys take the request path): both answer what the request object answers,
  # which a one-element key Array always takes.
  def test_a_key_alone_answers_what_its_request_answers
    hiera, scope, = example
    session = hiera.session(scope)
    keys = ['motd', 'ntp::servers', 'ntp::service_name', 'no::such::key', "caf\u00e9", "caf\xE9".b,
            "caf\xE9".dup.force_encoding('ISO-8859-1'), 'motd'.b, 'motd'.encode('US-ASCII'), "nul\0inside", "motd\0",
            "\xFF".dup.force_encoding('UTF-8'), '', 'profile::web::settings.listen.1']
    keys.each do |k|
      alone = begin
        session.lookup(k)
      rescue Libhiera::Error => e
        e.class
      end
      via_request = begin
        session.lookup([k])
      rescue Libhiera::Error => e
        e.class
      end
      if alone.equal?(Libhiera::NOT_FOUND) || via_request.equal?(Libhiera::NOT_FOUND)
        assert_same via_request, alone, k.inspect
      else
        assert_equal via_request, alone, k.inspect
      end
    end
    assert_equal 'Welcome to web01.example.com, managed by Puppet', session.lookup('motd')
  end

  # The out-parameter of a lookup is reused per fiber: never shared by two
  # threads or fibers, and a stale pointer in it is never read.
  def test_lookups_reuse_one_out_parameter_per_fiber
    hiera, scope, = example
    session = hiera.session(scope)
    mine = Libhiera::Native.out_pointer
    assert_same mine, Libhiera::Native.out_pointer
    other = Thread.new { Libhiera::Native.out_pointer }.value
    refute_same mine, other
    refute_same mine, Fiber.new { Libhiera::Native.out_pointer }.resume
    assert_equal 'ntpsec', session.lookup('ntp::service_name')
    assert_same Libhiera::NOT_FOUND, session.lookup('no::such::key')
    # Statuses that write nothing (NULL argument, panic): what the slot
    # holds from before is not taken (it would be freed a second time).
    mine.put_pointer(0, FFI::Pointer.new(0xdead))
    assert_nil Libhiera::Native.take_written(Libhiera::Native::NULL_ARGUMENT, mine)
    assert_nil Libhiera::Native.take_written(Libhiera::Native::PANIC, mine)
    mine.put_pointer(0, nil)
    assert_equal Libhiera::Native::NULL_ARGUMENT, Libhiera::Native.hiera_lookup_text(nil, '{"key":"k"}', mine)
    assert_equal 'ntpsec', session.lookup('ntp::service_name')
  end

  def test_data_files_read_as_yaml_data_and_json_data
    assert_equal({ 'a' => 1, 's' => [:sym] }, Libhiera.parse_data('yaml', '/d/x.yaml', "a: 1\n:s:\n- :sym\n"))
    assert_nil Libhiera.parse_data('yaml', '/d/x.yaml', "# nothing\n")
    assert_equal [1], Libhiera.parse_data('json', '/d/x.json', '[1]')
    e = assert_raises(Libhiera::ParseError) { Libhiera.parse_data('yaml', '/d/x.yaml', "d: 2020-01-01\n") }
    assert_equal 'Unable to parse (/d/x.yaml): Tried to load unspecified class: Date', e.message
  end

  # ---------------------------------------------------------------- lifetime

  def test_close
    hiera, scope, = example
    session = hiera.session(scope)
    hiera.close
    hiera.close
    assert hiera.closed?
    assert_raises(Libhiera::ClosedError) { hiera.session({}) }
    # A session keeps its configuration alive.
    assert_equal 'ntpsec', session.lookup('ntp::service_name')
    session.close
    assert_raises(Libhiera::ClosedError) { session.lookup('motd') }
    h3 = Libhiera::Hiera3.new(config: {})
    h3.close
    assert_raises(Libhiera::ClosedError) { h3.lookup('x') }
  end

  def test_gc_stress_frees_handles_without_crashing
    skip 'GC.stress is MRI only' unless RUBY_ENGINE == 'ruby'
    _, scope, = example
    small = { 'trusted' => scope['trusted'], 'facts' => scope['facts'] }
    GC.stress = true
    begin
      4.times do |i|
        h = Libhiera::Hiera.new(hiera_config: File.join(EXAMPLES, 'hiera.yaml'), environmentpath: File.join(EXAMPLES, 'environments'))
        s = h.session(small)
        assert_equal 'ntpsec', s.lookup('ntp::service_name')
        s.close if i.even?
        h3 = Libhiera::Hiera3.new(config: { hierarchy: ['common'] })
        assert_same :none, h3.lookup('x', :none)
        Libhiera::Hiera3.parse_string('%{a}', { 'a' => 'A' })
      end
    ensure
      GC.stress = false
    end
    GC.start
    assert true
  end

  # ---------------------------------------------------------------- threads

  def test_threads_share_one_hiera_and_one_session
    hiera, scope, results = example
    session = hiera.session(scope)
    want = results.to_h { |r| [r['key'], r['not_found'] ? 'NOT_FOUND' : expected_wire(r['value'])] }
    h3 = Libhiera::Hiera3.new(config: 'hiera.yaml', cwd: File.join(CONFORMANCE, 'hiera3', 'array_resolution'))
    h3_scope = { 'clientcert' => 'web01.example.com', 'role' => 'web', 'osfamily' => 'Debian' }
    h3_want = wire(h3.lookup('classes', nil, h3_scope, nil, :array))
    errors = Queue.new
    threads = Array.new(8) do |t|
      Thread.new do
        200.times do |i|
          key = results[(i + t) % results.size]['key']
          got = session.lookup(key)
          got = got.equal?(Libhiera::NOT_FOUND) ? 'NOT_FOUND' : wire(got)
          errors << "#{key}: #{got}" unless got == want[key]
          if (i % 20).zero?
            fresh = hiera.session(scope).lookup('ntp::service_name')
            errors << "fresh session: #{fresh}" unless fresh == 'ntpsec'
            errors << 'hiera3' unless wire(h3.lookup('classes', nil, h3_scope, nil, :array)) == h3_want
            errors << 'parse' unless Libhiera::Hiera3.parse_string("%{a}-#{t}", { 'a' => i }) == "#{i}-#{t}"
          end
        end
      end
    end
    threads.each(&:join)
    assert errors.empty?, errors.size.to_s + ' wrong answers: ' + (errors.empty? ? '' : errors.pop)
  end

  def test_closing_while_other_threads_look_up
    hiera, scope, = example
    session = hiera.session(scope)
    started = Queue.new
    outcomes = Queue.new
    threads = Array.new(4) do
      Thread.new do
        started << true
        loop do
          session.lookup('motd')
        rescue Libhiera::ClosedError
          outcomes << :closed
          break
        end
      end
    end
    4.times { started.pop }
    sleep 0.05
    session.close
    threads.each(&:join)
    assert_equal 4, outcomes.size
  end
end
