# frozen_string_literal: true

require_relative 'test_helper'
require 'hiera'
require 'hiera/backend/libhiera_backend'

# The `libhiera` Hiera 3 backend against the stock yaml and json backends
# on every recorded hiera3 case: each case's hiera.yaml is loaded as the gem
# loads it, then run twice, as it is and with `:backends: [libhiera]` and
# `:libhiera: {:backends: <the original list>}`; every query must give the
# same outcome (value, not found, or the same exception class and message).
class TestHiera3Backend < Minitest::Test
  include TestSupport

  def setup
    Hiera.logger = 'noop'
  end

  def libhiera_config(dir)
    Dir.chdir(dir) { Hiera::Config.load(File.join(dir, 'hiera.yaml')) }
    config = Hiera::Config.instance_variable_get(:@config).dup
    config[:libhiera] = { backends: config[:backends] }
    config[:backends] = ['libhiera']
    config
  rescue Exception # rubocop:disable Lint/RescueException -- the gem raises plain Exception
    nil
  end

  def test_backend_answers_as_the_stock_backends
    compared = 0
    skipped = []
    cases('hiera3').each do |dir, kase, expected|
      config = libhiera_config(dir)
      if config.nil?
        skipped << File.basename(dir) # the gem cannot load this hiera.yaml at all
        next
      end
      ours = hiera3_run(dir, kase, config: config)
      # On JRuby the gem's YAML is not Psych 4's: there the backend must
      # give the recorded (MRI) answers, as libhiera reproduces them.
      stock = hiera3_run(dir, kase) if RUBY_ENGINE == 'ruby'
      kase['queries'].each_with_index do |q, i|
        label = "#{File.basename(dir)} ##{i} #{q['key']}"
        want = recorded(expected['results'][i])
        if stock
          # The stock run is the recorded one (the recorder ran it).
          assert_equal want, stock[i].reject { |k, _| k == 'class' }, "stock #{label}"
          assert_equal stock[i], ours[i], label
        else
          assert_equal want, ours[i].reject { |k, _| k == 'class' }, label
        end
        compared += 1
      end
    end
    warn "hiera3 backend: #{compared} queries equal to #{RUBY_ENGINE == 'ruby' ? 'the stock backends' : 'the recorded answers'}" \
         "#{skipped.empty? ? '' : " (hiera.yaml not loadable: #{skipped.join(', ')})"}"
    assert_operator compared, :>, 250
  end

  def test_lookups_of_hiera_from_data_go_through_every_backend
    Dir.mktmpdir do |d|
      FileUtils.mkdir_p(File.join(d, 'data'))
      File.write(File.join(d, 'data', 'common.yaml'), "k: \"%{hiera('from_json')}/%{hiera('both')}\"\nboth: yaml\n")
      File.write(File.join(d, 'data', 'common.json'), '{"from_json": "J", "both": "json"}')
      config = { backends: %w[libhiera], libhiera: { backends: %w[yaml json] },
                 yaml: { datadir: File.join(d, 'data') }, json: { datadir: File.join(d, 'data') },
                 hierarchy: ['common'] }
      hiera = Hiera.new(config: config)
      Hiera.logger = 'noop'
      assert_equal 'J/yaml', hiera.lookup('k', nil, {})
      assert_equal %w[yaml json], hiera.lookup('both', nil, {}, nil, :array)
    end
  ensure
    Hiera::Backend.clear!
  end

  def test_dotted_keys_fall_through_to_the_next_format
    Dir.mktmpdir do |d|
      File.write(File.join(d, 'common.yaml'), "h: {a: 1}\n")
      File.write(File.join(d, 'common.json'), '{"h": {"b": 2}}')
      base = { yaml: { datadir: d }, json: { datadir: d }, hierarchy: ['common'] }
      stock = Hiera.new(config: base.merge(backends: %w[yaml json]))
      Hiera.logger = 'noop'
      want = [stock.lookup('h.b', 'none', {}), stock.lookup('h.a', 'none', {}), stock.lookup('h.c', 'none', {})]
      Hiera::Backend.clear!
      ours = Hiera.new(config: base.merge(backends: %w[libhiera], libhiera: { backends: %w[yaml json] }))
      Hiera.logger = 'noop'
      assert_equal want, [ours.lookup('h.b', 'none', {}), ours.lookup('h.a', 'none', {}), ours.lookup('h.c', 'none', {})]
      assert_equal [2, 1, 'none'], want
    end
  ensure
    Hiera::Backend.clear!
  end
end
