# frozen_string_literal: true

require_relative 'test_helper'
require 'hiera'
require 'libhiera/hiera3'

# Libhiera::Hiera3.accelerate! against the gem itself: thousands of
# generated inputs for Hiera::Backend.merge_answer, parse_answer and
# parse_string, each run with the gem's code (decelerated) and with the
# Rust helpers (accelerated), in the same process, on copies of the same
# inputs. The outcomes must be equal: the value (as strict wire JSON), or
# the exception's class and message; and what the call leaves behind: the
# merged-into Hash (`deeper_merge!` and `deeper_merge` work in place), and
# the recursion guard of the context. (Not compared: the second argument
# of merge_answer, from whose nested arrays deep_merge's knockout deletes
# items as a side effect; the Rust merge leaves it alone.)
class TestHiera3Accelerate < Minitest::Test
  include TestSupport

  SEED = Integer(ENV.fetch('LIBHIERA_SEED', '20260310'))
  MERGES = Integer(ENV.fetch('LIBHIERA_MERGES', '3000'))
  PARSES = Integer(ENV.fetch('LIBHIERA_PARSES', '3000'))

  # hiera()/alias() lookups, as Backend.lookup makes them, are answered by
  # this backend from $difftable: the value interpolated with the lookup's
  # context (so the guard is shared), as the yaml backend does.
  class ::Hiera::Backend::Difftable_backend
    def lookup(key, _scope, order_override, _resolution_type, context)
      return order_override if key == 'oo'
      throw :no_such_key unless $difftable.key?(key)

      Hiera::Backend.parse_answer($difftable[key], $diffscope, {}, context)
    end
  end

  def setup
    Hiera.logger = 'noop'
    Libhiera::Hiera3.accelerate!
  end

  def teardown
    Libhiera::Hiera3.accelerate!
    Hiera::Backend.clear!
  end

  def both
    Libhiera::Hiera3.decelerate!
    stock = yield
    Libhiera::Hiera3.accelerate!
    fast = yield
    [stock, fast]
  end

  def copy(v)
    Marshal.load(Marshal.dump(v))
  end

  # What both generators draw with (from @rng).
  module Draw
    def pick(list)
      list[@rng.rand(list.size)]
    end

    def chance(num, den)
      @rng.rand(den) < num
    end
  end

  # ------------------------------------------------------------ merge_answer

  class MergeGen
    include Draw

    def initialize(rng)
      @rng = rng
      @prefix = '--'
    end

    def string
      w = pick(['a', 'b', 'c', 'x', 'a,b', 'b c', '', 'Z', 'é'])
      case @rng.rand(8)
      when 0, 1 then "#{@prefix}#{w}"
      when 2 then @prefix.dup
      else w.dup
      end
    end

    def scalar
      case @rng.rand(14)
      when 0..5, 13 then string
      when 6, 7 then @rng.rand(4)
      when 8 then pick([0.5, 1.0, 2.0])
      when 9 then nil
      when 10 then true
      when 11 then false
      else pick(%i[s1 s2])
      end
    end

    def key
      case @rng.rand(12)
      when 0 then 1
      when 1 then :a
      else pick(%w[a b c k list --a]).dup
      end
    end

    def array(depth)
      hashes = depth.positive? && chance(1, 4)
      Array.new(@rng.rand(5)) { hashes ? hash(depth - 1) : scalar }
    end

    def hash(depth)
      h = {}
      @rng.rand(5).times { h[key] = value(depth) }
      h
    end

    def value(depth)
      return scalar if depth.zero?

      case @rng.rand(10)
      when 0..3 then hash(depth - 1)
      when 4..6 then array(depth - 1)
      else scalar
      end
    end

    # A hash sharing keys with `other`, so that merges meet.
    def like(other, depth)
      return value(depth) unless other.is_a?(Hash)

      h = {}
      other.each do |k, v|
        next unless chance(2, 3)

        h[k] =
          if v.is_a?(Hash) && depth.positive? then like(v, depth - 1)
          elsif v.is_a?(Array) && chance(2, 3)
            items = v.select { chance(1, 2) }
            @rng.rand(3).times do
              items << if v.first.is_a?(Hash) && depth.positive? then hash(depth - 1)
                       elsif v.first.is_a?(String) && chance(1, 2) then "#{@prefix}#{v.first}"
                       else scalar
                       end
            end
            items
          else value(depth)
          end
      end
      @rng.rand(3).times { h[key] = value(depth) }
      h
    end

    def option_value(name)
      case name
      when 'knockout_prefix'
        p = pick(['--', '##', '.', '', 'a|--', '-+'])
        [nil, false, p, p, p, p, p, p][@rng.rand(8)]
      when 'unpack_arrays' then [nil, false, '', ' ', ',', ','][@rng.rand(6)]
      else [nil, false, 'yes', 0, true, true][@rng.rand(6)]
      end
    end

    def options(h)
      %w[knockout_prefix unpack_arrays sort_merged_arrays merge_hash_arrays overwrite_arrays
         extend_existing_arrays preserve_unmergeables].each do |name|
        next unless chance(1, 3)

        v = option_value(name)
        @prefix = v if name == 'knockout_prefix' && v.is_a?(String) && !v.empty?
        # now and then a String key, which the gem ignores
        h[chance(1, 10) ? name : name.to_sym] = v
      end
      h[:merge_debug] = false if chance(1, 20)
      h
    end

    def behavior
      case @rng.rand(10)
      when 0, 1 then 'deeper'
      when 2 then :deeper
      when 3, 4 then 'deep'
      when 5 then :deep
      when 6 then 'native'
      when 7 then pick(['Deeper', nil, :native])
      else :none
      end
    end

    # [resolution type, configuration]
    def resolution
      config = {}
      if chance(1, 3)
        b = behavior
        config[:merge_behavior] = b unless b == :none
        case @rng.rand(8)
        when 0 then nil
        when 1 then config[:deep_merge_options] = nil
        when 2 then config[:deep_merge_options] = 'not a hash'
        else config[:deep_merge_options] = options({})
        end
        return [pick([:array, nil, :hash, :hash]), config]
      end
      rt = {}
      b = behavior
      rt[:behavior] = b unless b == :none
      [options(rt), config]
    end

    def case_inputs
      rt, config = resolution
      depth = 1 + @rng.rand(3)
      right = chance(1, 15) ? value(depth) : hash(depth)
      left = chance(1, 15) ? value(depth) : like(right, depth)
      [left, right, rt, config]
    end
  end

  def test_merge_answer_matches_the_gem
    rng = Random.new(SEED)
    counts = Hash.new(0)
    MERGES.times do |i|
      left, right, rt, config = MergeGen.new(Random.new(rng.rand(2**62))).case_inputs
      ::Hiera::Config.instance_variable_set(:@config, { backends: ['yaml'] }.merge(config))
      stock, fast = both do
        l = copy(left)
        r = copy(right)
        got = outcome { Hiera::Backend.merge_answer(l, r, copy(rt)) }
        [got, wire(l)]
      end
      counts[stock[0].key?('error') ? :errors : :values] += 1
      assert_equal stock, fast, "merge case #{i}: merge_answer(#{left.inspect}, #{right.inspect}, #{rt.inspect}) with #{config.inspect}"
    end
    warn "merge_answer: #{MERGES} generated cases equal to the gem (#{counts[:values]} values, #{counts[:errors]} errors)"
  ensure
    ::Hiera::Config.instance_variable_set(:@config, { backends: ['yaml'] })
  end

  # ------------------------------------------------------ parse_answer/string

  EXPRS = ['a', 'b', 'x', 'host', ' a ', 'a ', '::a', '', ' ', '::', "''", '""', "'::'", '"::"', 'os.family', 'os.missing',
           "os.'family'", 'list.0', 'list.1', 'list.9', 'list.x', '0', 'a..b', 'a.', "'a.b'", 'n.x', 'f', 'nil', 'tmpl',
           'text', 'loop', 'lit', 'h', 'via_hiera', 'via_alias', "scope('a')", 'scope("host")', "scope('os.family')",
           'scope(a)', "hiera('k1')", 'hiera("k2")', "hiera('arr')", "hiera('hash')", "hiera('nilv')", "hiera('missing')",
           "hiera('loop1')", "hiera('chain')", "hiera('lit')", "hiera('oo')", "hiera('list.1')", 'hiera(k1)', "hiera('')",
           "hiera( 'k1' )", "hiera('k1\")", "alias('arr')", "alias('str')", "alias('hash')", "alias('nilv')",
           "alias('missing')", "alias('int')", "alias('loop2')", "literal('%')", "literal('x')", "literal('a')",
           "literal(\"'\")", "literal('{')", "lookup('a')", "Hiera('k1')", "hiera_x('k1')", "hiera ('k1')",
           "x\nhiera('k1')", 'extra_var', 'extra.sub', 'boom', "hiera('boom')"].freeze
  TEXT = ['x', ' ', '-', "\n", '}', '%', '{', '%{', '%%', 'pre ', ' post', 'é', '#{x}'].freeze

  class ParseGen
    include Draw

    def initialize(rng)
      @rng = rng
    end

    def token
      "%{#{pick(EXPRS)}}"
    end

    def string
      n = @rng.rand(4) + (chance(1, 3) ? 0 : 1)
      s = +''
      n.times { s << (chance(3, 5) ? token : pick(TEXT)) }
      s
    end

    def value(depth)
      case @rng.rand(depth.zero? ? 6 : 9)
      when 0..2 then string
      when 3 then pick([7, 1.5, false, nil, :s])
      when 4 then pick([1e20, -0.0, 2.5])
      when 5 then true
      when 6, 7 then Array.new(@rng.rand(4)) { value(depth - 1) }
      else
        h = {}
        @rng.rand(4).times do
          k = case @rng.rand(5)
              when 0 then :k
              when 1 then 1
              else string
              end
          h[k] = value(depth - 1)
        end
        h
      end
    end

    def scope
      s = {
        'a' => 'A', 'host' => 'web01', ' a ' => 'spaced', '::a' => 'colons',
        'os' => { 'family' => 'Debian' }, 'list' => %w[l0 l1], 'n' => 3, 'f' => false, 'nil' => nil,
        'a.b' => 'dotted', 'tmpl' => pick(['%{a}', 'pre %{host} post %{a}', "%{literal('z')}", "%{hiera('k1')}"]),
        'text' => 't %{a} t', 'loop' => '%{loop}', 'lit' => "%{literal('q')}", 'h' => { 'k' => [1, 2] },
        'via_hiera' => "%{hiera('arr')}", 'via_alias' => "%{alias('arr')}"
      }
      @rng.rand(3).times { s[pick(%w[x b a tmpl])] = string }
      s
    end

    def table
      t = {
        'k1' => 'K1', 'k2' => 'k2 %{a} and %{host}', 'arr' => ['a', 1], 'hash' => { 'k' => 'v' }, 'nilv' => nil,
        'str' => 'S', 'int' => 42, 'loop1' => "%{hiera('loop2')}", 'loop2' => "x %{alias('loop1')}",
        'chain' => "%{hiera('k2')}", 'lit' => "%{literal('L')}", 'list' => ['%{a}', :s]
      }
      @rng.rand(2).times { t[pick(%w[k1 str x])] = string }
      t
    end

    def order_override
      pick(['special', ['first', 'nodes/%{host}'], '', false, nil, nil])
    end

    def extra
      chance(1, 3) ? { 'extra_var' => 'E', 'a' => 'from extra', 'extra' => { 'sub' => 9 } } : {}
    end

    # A context: the gem's default, or one carrying a guard (as a nested
    # lookup's does).
    def context(oo)
      return { recurse_guard: nil, order_override: oo } unless chance(1, 4)

      guard = Hiera::RecursiveGuard.new
      guard.instance_variable_set(:@seen, pick([[], ["hiera('k1')"], ["hiera('chain')", 'x'], ["literal('x')"]]).dup)
      { recurse_guard: guard, order_override: oo, extra_key: 'kept' }
    end
  end

  # A scope that is not a Hash: the gem asks it only with include? and [].
  class ScopeLike
    def initialize(hash)
      @hash = hash
    end

    def include?(name)
      @hash.key?(name)
    end

    def [](name)
      @hash[name]
    end
  end

  def test_parse_answer_and_parse_string_match_the_gem
    rng = Random.new(SEED + 1)
    ::Hiera::Config.instance_variable_set(:@config, { backends: ['difftable'] })
    Hiera::Backend.clear!
    counts = Hash.new(0)
    PARSES.times do |i|
      g = ParseGen.new(Random.new(rng.rand(2**62)))
      whole = g.chance(3, 4)
      data = whole && g.chance(1, 2) ? g.value(g.pick([0, 1, 2])) : g.string
      scope = g.scope
      table = g.table
      oo = g.order_override
      extra = g.extra
      context = g.context(oo)
      scope_like = g.chance(1, 6)
      stock, fast = both do
        $diffscope = scope_like ? ScopeLike.new(copy(scope)) : copy(scope)
        $difftable = copy(table)
        ctx = copy(context)
        got = outcome do
          if whole
            Hiera::Backend.parse_answer(copy(data), $diffscope, copy(extra), ctx)
          else
            Hiera::Backend.parse_string(copy(data), $diffscope, copy(extra), ctx)
          end
        end
        [got, ctx[:recurse_guard]&.instance_variable_get(:@seen)]
      end
      counts[stock[0].key?('error') ? :errors : :values] += 1
      assert_equal stock, fast, "parse case #{i}: #{whole ? 'parse_answer' : 'parse_string'}(#{data.inspect}) " \
                                "scope #{scope.inspect} table #{table.inspect} oo #{oo.inspect} extra #{extra.inspect}"
    end
    warn "parse_answer/parse_string: #{PARSES} generated cases equal to the gem (#{counts[:values]} values, #{counts[:errors]} errors)"
  ensure
    ::Hiera::Config.instance_variable_set(:@config, { backends: ['yaml'] })
  end

  def test_accelerated_calls_reach_rust
    calls = 0
    counter = Module.new do
      define_method(:native_parse) do |*args, **kw|
        calls += 1
        super(*args, **kw)
      end
    end
    Libhiera::Hiera3.singleton_class.prepend(counter)
    assert_equal({ 'k' => ['x-A'] }, Hiera::Backend.parse_answer({ 'k' => ['x-%{a}'] }, { 'a' => 'A' }))
    assert_equal 'A', Hiera::Backend.parse_string('%{a}', { 'a' => 'A' })
    assert_equal 2, calls
    assert_equal 'plain', Hiera::Backend.parse_string('plain', {})
    assert_equal 2, calls, 'a String without %{ stays in Ruby'
  end

  def test_an_exception_in_a_lookup_comes_out_as_itself
    ::Hiera::Config.instance_variable_set(:@config, { backends: ['difftable'] })
    Hiera::Backend.clear!
    $diffscope = {}
    $difftable = { 'k' => 'x' }
    boom = Class.new(StandardError)
    Hiera::Backend::Difftable_backend.class_eval do
      alias_method :plain_lookup, :lookup
      define_method(:lookup) do |key, *rest|
        raise boom, "raised for #{key}" if key == 'bad'
        throw :elsewhere if key == 'thrown'

        plain_lookup(key, *rest)
      end
    end
    e = assert_raises(boom) { Hiera::Backend.parse_string("%{hiera('bad')}", {}) }
    assert_equal 'raised for bad', e.message
    # A throw to a catch outside cannot unwind through libhiera: it stops at
    # the boundary and the call fails.
    e = assert_raises(Libhiera::Error) { catch(:elsewhere) { Hiera::Backend.parse_string("%{hiera('thrown')}", {}) } }
    assert_match(/throw/, e.message)
    assert_equal 'x', Hiera::Backend.parse_string("%{hiera('k')}", {})
  ensure
    Hiera::Backend::Difftable_backend.class_eval do
      if method_defined?(:plain_lookup)
        alias_method :lookup, :plain_lookup
        remove_method :plain_lookup
      end
    end
    ::Hiera::Config.instance_variable_set(:@config, { backends: ['yaml'] })
  end
end
