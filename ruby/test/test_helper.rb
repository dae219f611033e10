# frozen_string_literal: true

# Shared by the gem's tests. Run them all with `ruby/test/run` (the
# project's scripts/test-all does), which points LIBHIERA_PATH at the
# freshly built target/release/libhiera.so.
$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
require 'minitest/autorun'
require 'json'
require 'yaml'
require 'fileutils'
require 'tmpdir'
require 'libhiera'

module TestSupport
  ROOT = File.expand_path('../..', __dir__)
  CONFORMANCE = File.join(ROOT, 'tests', 'conformance')
  CONFORMANCE_P8 = File.join(ROOT, 'tests', 'conformance-p8')
  EXAMPLES = File.join(ROOT, 'examples')

  module_function

  # Every recorded case: [dir, case.yaml, expected.json]; CASE=substring
  # keeps the cases whose directory contains it.
  def cases(engine, roots = [CONFORMANCE])
    filter = ENV.fetch('CASE', '')
    found = roots.flat_map { |r| Dir.glob(File.join(r, '**', 'case.yaml')) }.sort.map do |f|
      dir = File.dirname(f)
      next unless dir.include?(filter)

      kase = YAML.safe_load(File.read(f), aliases: true)
      next unless (kase['engine'] || 'hiera5') == engine

      [dir, kase, JSON.parse(File.read(File.join(dir, 'expected.json')))]
    end
    found.compact
  end

  # A case's `settings:` as Libhiera::Hiera.new options (directories
  # relative to the case root made absolute); an unknown setting raises.
  def settings(dir, kase)
    (kase['settings'] || {}).each_with_object({}) do |(name, value), options|
      case name
      when 'basemodulepath' then options[:basemodulepath] = value.map { |d| File.join(dir, d) }
      when 'strict' then options[:strict] = value
      else raise ArgumentError, "#{dir}: unknown setting #{name}"
      end
    end
  end

  # The strict form of a value: its wire JSON, which tells Integers from
  # Floats, Strings from Symbols, and keeps the key order.
  def wire(value)
    JSON.generate(Libhiera::Wire.prepare(value))
  end

  # An expected.json value in the same form.
  def expected_wire(value)
    JSON.generate(value)
  end

  # Hiera 3 resolution types as the recorder passes them to the gem.
  def resolution_type(rt)
    case rt
    when nil then :priority
    when String then rt.to_sym
    when Hash then rt.transform_keys(&:to_sym)
    end
  end

  NOT_FOUND = Object.new.freeze

  # The outcome of a block in the recorder's terms.
  def outcome
    v = yield
    v.equal?(NOT_FOUND) || v.equal?(Libhiera::NOT_FOUND) ? { 'not_found' => true } : { 'value' => wire(v) }
  rescue Exception => e # rubocop:disable Lint/RescueException -- hiera raises plain Exception
    raise if e.is_a?(Minitest::Assertion) || e.is_a?(Interrupt) || e.is_a?(NoMemoryError)

    { 'error' => normal(e.message), 'class' => e.class.name }
  end

  # A message without what is the recording process's state, not behaviour
  # (file descriptor numbers in Ruby's `io_fillbuf - fd:5 path`, object
  # addresses in JRuby's `#<Array:0x41ece227>`, as many hex digits as the
  # identity hash happens to have: a short one made a JRuby run fail).
  def normal(message)
    message.to_s.gsub(/\bfd:\d+/, 'fd:N').gsub(/0x\h+/, '0xXXXX')
  end

  # The recorded result in the same terms.
  def recorded(result)
    if result.key?('value') then { 'value' => expected_wire(result['value']) }
    elsif result['not_found'] then { 'not_found' => true }
    else { 'error' => normal(result['error']) }
    end
  end

  # The Hiera 3 results of a case through the stock gem (or, with
  # `config`, a hiera.yaml Hash in its place), every query as the first
  # lookup of fresh backends, in the case directory: the recorder's way.
  def hiera3_run(dir, kase, config: nil)
    require 'hiera'
    scope = (kase['facts'] || {}).merge(kase['variables'] || {})
    Dir.chdir(dir) do
      hiera = Hiera.new(config: config || File.join(dir, 'hiera.yaml'))
      Hiera.logger = 'noop'
      kase['queries'].map do |q|
        Hiera::Backend.clear!
        default = q.key?('default') ? q['default'] : NOT_FOUND
        outcome { hiera.lookup(q['key'], default, scope, q['order_override'], resolution_type(q['resolution_type'])) }
      end
    end
  ensure
    Hiera::Backend.clear! if defined?(Hiera::Backend)
  end
end
