# frozen_string_literal: true

require_relative 'test_helper'
$LOAD_PATH.unshift(File.expand_path('support', __dir__))
require 'puppet_runner'
require 'libhiera/puppet'
require 'minitest/mock'

# The hand-off (Libhiera::Puppet.accelerate!) inside real Puppet 7.23
# catalog compiles: every recorded Hiera 5 case and the example control
# repo, each query through Puppet's `lookup()` as the recorder ran it, must
# give Puppet's recorded answer, and nearly all of them must have been
# answered by libhiera. Then automatic parameter lookup from a module class
# (whose scope adds variables), a hierarchy with a custom function (run by
# Puppet from inside libhiera's lookup), and explanations (Puppet's own).
class TestPuppetHandoff < Minitest::Test
  include TestSupport

  def setup
    skip 'Puppet compiles need fork (MRI)' unless Process.respond_to?(:fork) && RUBY_ENGINE == 'ruby'
    PuppetRunner.boot
    Libhiera::Puppet.accelerate!
  end

  def in_child(handoff: true)
    PuppetRunner.forked do
      handoff ? Libhiera::Puppet.accelerate! : Libhiera::Puppet.decelerate!
      Libhiera::Puppet.stats.clear
      [yield, Libhiera::Puppet.stats.dup]
    end
  end

  def test_every_hiera5_case_is_answered_as_puppet_answers_it
    # Under Puppet 8 (OpenVox 8), the answers OpenVox 8 gave (record-p8).
    list = PuppetRunner.puppet8? ? cases('hiera5', [CONFORMANCE_P8]) : cases('hiera5', [CONFORMANCE, EXAMPLES])
    warn "hand-off under Puppet #{Puppet.version}: #{list.size} cases"
    failures = []
    diffs = 0
    stats = Hash.new(0)
    queries = 0
    list.each do |dir, kase, expected|
      results, st = in_child do
        PuppetRunner.run_case(dir, kase).map { |o| o.key?('value') ? { 'value' => wire(o['value']) } : o }
      end
      st.each { |k, v| stats[k] += v }
      results.each_with_index do |got, i|
        queries += 1
        want = recorded(expected['results'][i])
        label = "#{dir.delete_prefix("#{ROOT}/")} ##{i} #{kase['queries'][i]['key']}"
        if want.key?('error') && got.key?('error')
          diffs += 1 unless normal(got['error']) == want['error']
        elsif want != got
          failures << "#{label}: expected #{want.inspect}, got #{got.inspect}"
        end
      end
    end
    failures.each { |f| warn "FAIL #{f}" }
    warn "hand-off: #{queries} queries in Puppet compiles, #{failures.size} failed, #{diffs} message differences; #{stats.sort.to_h}"
    assert_empty failures
    assert_operator stats[:handed_off] + stats[:errors], :>=, queries * 9 / 10, 'most lookups were answered by libhiera'
  end

  MODULE_CASE = {
    'hiera.yaml' => "version: 5\n",
    'environments/production/hiera.yaml' =>
      "version: 5\ndefaults:\n  datadir: data\n  data_hash: libhiera::yaml_data\nhierarchy:\n" \
      "  - name: role\n    path: \"role/%{facts.role}.yaml\"\n  - name: common\n    path: common.yaml\n",
    'environments/production/data/role/web.yaml' => "foo::x: \"web %{module_name} %{facts.role} %{title}\"\n",
    'environments/production/data/common.yaml' =>
      "foo::x: common\nfoo::list: [a, b]\nfoo::secret: s3cret\nlookup_options:\n  foo::list:\n    merge: unique\n" \
      "  foo::secret:\n    convert_to: Sensitive\n",
    'environments/production/modules/foo/manifests/init.pp' =>
      "class foo(String $x, Array $list, Sensitive $secret, $y = 'dflt') {\n" \
      "  notify { \"x=${x} list=${list} y=${y} secret=${secret.unwrap}\": }\n" \
      "  $z = lookup('foo::x')\n  notify { \"z=${z}\": }\n}\n",
    'environments/production/modules/foo/data/common.yaml' => "foo::list: [c]\n",
    'environments/production/modules/foo/hiera.yaml' => "version: 5\n",
  }.freeze

  def write(dir, files)
    files.each do |path, text|
      FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
      File.write(File.join(dir, path), text)
    end
  end

  def notices(dir, kase, code)
    titles = nil
    PuppetRunner.compile(dir, kase, code: code, modules: [PuppetRunner.gem_modules]) do |compiler, _|
      compiler.catalog.resources.each { |r| (titles ||= []) << r.title if r.type == 'Notify' }
      compiler.catalog.resources.size # the compile evaluated `code` already
    end
    titles
  end

  def test_automatic_parameter_lookup_from_a_module_class
    Dir.mktmpdir do |dir|
      write(dir, MODULE_CASE)
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      puppet, = in_child(handoff: false) { notices(dir, kase, 'include foo') }
      ours, st = in_child { notices(dir, kase, 'include foo') }
      assert_equal ['x=web foo web main list=[a, b, c] y=dflt secret=s3cret', 'z=web foo web foo'], puppet
      assert_equal puppet, ours
      assert_operator st[:handed_off], :>=, 4, st.inspect
    end
  end

  def test_a_custom_function_runs_inside_the_handed_off_lookup
    Dir.mktmpdir do |dir|
      write(dir, MODULE_CASE.merge(
        'environments/production/hiera.yaml' =>
          "version: 5\nhierarchy:\n  - name: custom\n    lookup_key: foo::custom\n  - name: common\n    path: common.yaml\n",
        'environments/production/modules/foo/lib/puppet/functions/foo/custom.rb' =>
          "Puppet::Functions.create_function(:'foo::custom') do\n  dispatch(:lk) { param 'String', :key; param 'Hash', :o; param 'Puppet::LookupContext', :c }\n" \
          "  def lk(key, _o, c)\n    key == 'foo::x' ? 'from custom' : c.not_found\n  end\nend\n"
      ))
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      puppet, = in_child(handoff: false) { notices(dir, kase, 'include foo') }
      ours, st = in_child { notices(dir, kase, 'include foo') }
      assert_equal puppet, ours
      assert_includes ours.first, 'x=from custom'
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
      assert_operator st[:handed_off], :>=, 4, st.inspect
    end
  end


  # Puppet 4 data providers: environment.conf's `environment_data_provider
  # = function` and a module's `"data_provider": "function"`. libhiera reads
  # the settings and searches, merges and interpolates; Puppet's own
  # `environment::data()` and `foo::data()` give the data, called through
  # the host from inside libhiera's lookups, once per compile as Puppet
  # calls them.
  DATA_PROVIDER_CASE = {
    'hiera.yaml' => "version: 5\n",
    'data/common.yaml' => "foo::list: [global]\n",
    'environments/production/environment.conf' => "environment_data_provider = function\n",
    'environments/production/lib/puppet/functions/environment/data.rb' =>
      "Puppet::Functions.create_function(:'environment::data') do\n  def data\n" \
      "    $libhiera_data_calls << 'environment::data'\n" \
      "    { 'foo::x' => 'env %{facts.role}', 'foo::list' => ['env'], 'greeting' => 'hello %{trusted.certname}',\n" \
      "      'lookup_options' => { 'foo::list' => { 'merge' => 'unique' } } }\n  end\nend\n",
    'environments/production/modules/foo/metadata.json' =>
      JSON.generate('name' => 'me-foo', 'version' => '1.0.0', 'author' => 'me', 'license' => 'Apache-2.0',
                    'summary' => 'foo', 'source' => 'https://example.com/foo', 'dependencies' => [],
                    'data_provider' => 'function'),
    'environments/production/modules/foo/lib/puppet/functions/foo/calls.rb' =>
      "Puppet::Functions.create_function(:'foo::calls') do\n  def calls\n    $libhiera_data_calls << 'foo::data'\n    nil\n  end\nend\n",
    'environments/production/modules/foo/functions/data.pp' =>
      "function foo::data() {\n  $data = { 'foo::list' => ['module'], 'foo::y' => \"from foo::data\",\n" \
      "    'foo::z' => '%{lookup(\"greeting\")} in %{module_name}', 'foo::deep' => { 'a' => [1, 2] } }\n" \
      "  $called = foo::calls()\n  $data\n}\n",
    'environments/production/modules/foo/manifests/init.pp' =>
      "class foo(String $x, Array $list, String $y, String $z) {\n" \
      "  notify { \"x=${x} list=${list} y=${y} z=${z}\": }\n" \
      "  notify { \"deep=${lookup('foo::deep.a.1')} g=${lookup('greeting')} l=${lookup('foo::list', Array, 'first')}\": }\n}\n",
  }.freeze

  def test_puppet4_function_data_providers_are_answered_with_puppets_functions
    Dir.mktmpdir do |dir|
      write(dir, DATA_PROVIDER_CASE)
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      compile = lambda do
        $libhiera_data_calls = []
        [notices(dir, kase, 'include foo'), $libhiera_data_calls.tally]
      end
      puppet, = in_child(handoff: false, &compile)
      ours, st = in_child(&compile)
      assert_equal ['x=env web list=[global, env, module] y=from foo::data z=hello web01 in foo',
                    'deep=2 g=hello web01 l=[global]'], puppet.first
      assert_equal puppet, ours
      # Each function once per compile, as Puppet calls it.
      assert_equal({ 'environment::data' => 1, 'foo::data' => 1 }, ours.last)
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
      assert_operator st[:handed_off], :>=, 7, st.inspect
    end
  end

  # The same with `environment_data_provider = function` as Puppet's own
  # setting (puppet.conf) and no environment.conf.
  def test_the_puppet_conf_environment_data_provider_is_answered_too
    Dir.mktmpdir do |dir|
      write(dir, DATA_PROVIDER_CASE.reject { |path, _| path.end_with?('environment.conf') })
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      compile = lambda do
        $libhiera_data_calls = []
        Puppet[:environment_data_provider] = 'function'
        [notices(dir, kase, 'include foo'), $libhiera_data_calls.tally]
      end
      puppet, = in_child(handoff: false, &compile)
      ours, st = in_child(&compile)
      assert_equal ['x=env web list=[global, env, module] y=from foo::data z=hello web01 in foo',
                    'deep=2 g=hello web01 l=[global]'], puppet.first
      assert_equal puppet, ours
      assert_equal({ 'environment::data' => 1, 'foo::data' => 1 }, ours.last)
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
      assert_operator st[:handed_off], :>=, 7, st.inspect
    end
  end

  # A session shares what it computed with the overlays of a compile's
  # other scopes: what reads a class's or a resource's own variables must
  # be computed for that scope, whatever was looked up before.
  OVERLAY_CASE = {
    'hiera.yaml' => "version: 5\n",
    'environments/production/hiera.yaml' =>
      "version: 5\nhierarchy:\n  - name: mod\n    path: \"mod/%{module_name}.yaml\"\n  - name: common\n    path: common.yaml\n",
    'environments/production/data/mod/bar.yaml' => "foo::where: in module bar\n",
    'environments/production/data/common.yaml' =>
      "foo::greeting: \"hello %{local} from %{module_name} in %{title}/%{name} by %{caller_module_name} top %{::topvar}\"\n" \
      "foo::where: \"common for %{module_name}\"\n" \
      "foo::qualified: \"q=%{foo::params::val}\"\n" \
      "foo::x: \"x %{module_name} %{title}\"\nbar::x: \"x %{module_name} %{title}\"\nfoo::child::x: \"cx %{module_name} %{title} %{val}\"\n" \
      "common::x: plain\n" \
      "foo::fresh: \"fresh %{fresh}\"\n",
    'environments/production/modules/foo/manifests/init.pp' =>
      "class foo(String $x) {\n  $local = 'in-foo'\n  $fresh = 'foo-fresh'\n" \
      "  notify { \"foo: ${x} | ${lookup('foo::greeting')} | ${lookup('foo::where')} | ${lookup('foo::fresh')}\": }\n" \
      "  foo::thing { ['a', 'b']: }\n}\n",
    'environments/production/modules/foo/manifests/params.pp' => "class foo::params {\n  $val = 'from-params'\n}\n",
    'environments/production/modules/foo/manifests/child.pp' =>
      "class foo::child(String $x) inherits foo::params {\n  notify { \"child: ${x} | ${lookup('foo::qualified')} | ${lookup('foo::greeting')}\": }\n}\n",
    'environments/production/modules/foo/manifests/thing.pp' =>
      "define foo::thing {\n  $local = \"thing-${title}\"\n  notify { \"thing ${title}: ${lookup('foo::greeting')}\": }\n}\n",
    'environments/production/modules/bar/manifests/init.pp' =>
      "class bar(String $x) {\n  $local = 'in-bar'\n  $fresh = 'bar-fresh'\n" \
      "  notify { \"bar: ${x} | ${lookup('foo::greeting')} | ${lookup('foo::where')} | ${lookup('foo::fresh')}\": }\n  include foo::child\n}\n",
  }.freeze

  # Variables read first at the top scope and later given by a class
  # (local, title, module_name), and one read first inside a class that
  # gives it (fresh: libhiera asks the scope about a name it has not
  # numbered yet), then from another class and the top scope.
  def test_class_and_resource_variables_in_data_are_each_scopes_own
    Dir.mktmpdir do |dir|
      write(dir, OVERLAY_CASE)
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      # foo::qualified reads foo::params::val before foo::params is evaluated, then after.
      code = "notify { \"early: ${lookup('foo::greeting')} ${lookup('common::x')} ${lookup('foo::qualified')}\": }\n" \
             "$topvar = 'late'\nnotify { \"mid: ${lookup('foo::qualified')}\": }\ninclude foo\ninclude bar\n" \
             "notify { \"late: ${lookup('foo::greeting')} ${lookup('foo::qualified')} ${lookup('foo::fresh')}\": }\n"
      # strict=warning under Puppet 8 too: the top scope reads variables
      # only classes define (undefined there, as Puppet 7 lets them be).
      kase = kase.merge('settings' => { 'strict' => 'warning' })
      puppet, = in_child(handoff: false) { notices(dir, kase, code) }
      ours, st = in_child { notices(dir, kase, code) }
      assert_equal 8, puppet.size, puppet.inspect
      assert_equal puppet, ours
      assert_operator st[:handed_off], :>=, 12, st.inspect
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
      warn "overlays: #{puppet.size} notices as Puppet's; #{st.sort.to_h}"
    end
  end

  # A hierarchy that reads no variable: what a lookup caches depends only
  # on the variables its data reads. `fresh` is first read inside class a,
  # which gives it; then b gives another value, c none (as the top scope).
  # `same` is first read inside a, which gives it the top scope's value.
  # `shared` is read first at the top, then in a, which gives it too.
  # `::shared` and `::fresh` are the top scope's, in a too.
  FRESH_CASE = {
    'hiera.yaml' => "version: 5\n",
    'environments/production/hiera.yaml' => "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    'environments/production/data/common.yaml' =>
      "fresh::x: \"fresh %{fresh}\"\nfresh::y: \"shared %{shared}\"\nfresh::z: \"same %{same}\"\n" \
      "fresh::top: \"top %{::shared} %{::fresh}\"\n",
    'environments/production/modules/fresh/manifests/a.pp' =>
      "class fresh::a {\n  $fresh = 'in-a'\n  $shared = 'in-a'\n  $same = 'top-same'\n" \
      "  notify { \"a: ${lookup('fresh::x')} ${lookup('fresh::y')} ${lookup('fresh::z')} ${lookup('fresh::top')}\": }\n}\n",
    'environments/production/modules/fresh/manifests/b.pp' =>
      "class fresh::b {\n  $fresh = 'in-b'\n  notify { \"b: ${lookup('fresh::x')} ${lookup('fresh::y')} ${lookup('fresh::z')}\": }\n}\n",
    'environments/production/modules/fresh/manifests/c.pp' =>
      "class fresh::c {\n  notify { \"c: ${lookup('fresh::x')} ${lookup('fresh::z')}\": }\n}\n",
  }.freeze

  def test_a_variable_first_read_inside_a_class_is_that_class_own
    Dir.mktmpdir do |dir|
      write(dir, FRESH_CASE)
      # strict=warning under Puppet 8 too: `::fresh` is undefined.
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' },
               'settings' => { 'strict' => 'warning' } }
      code = "$shared = 'top'\n$same = 'top-same'\nnotify { \"top first: ${lookup('fresh::y')}\": }\n" \
             "include fresh::a\ninclude fresh::b\ninclude fresh::c\n" \
             "notify { \"top last: ${lookup('fresh::x')} ${lookup('fresh::y')} ${lookup('fresh::z')}\": }\n"
      puppet, = in_child(handoff: false) { notices(dir, kase, code) }
      ours, st = in_child { notices(dir, kase, code) }
      assert_equal ['top first: shared top', 'a: fresh in-a shared in-a same top-same top top ',
                    'b: fresh in-b shared top same top-same', 'c: fresh  same top-same',
                    'top last: fresh  shared top same top-same'], puppet
      assert_equal puppet, ours
      assert_equal 13, st[:handed_off], st.inspect
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
    end
  end

  # A scope's request fields are kept per scope while its variable tables
  # stay as they were: a variable the class sets after a lookup, a lambda's
  # parameter (a table pushed on the scope's ephemeral stack, then popped),
  # and node scope variables set before and after a class is included must
  # each be seen (or not) as Puppet sees them. Class later's first lookups
  # read every variable name the data has, so that the lookups after them
  # number no new name: only the tables' changes can tell that the scope's
  # fields changed. `lookup()` with a default and a type goes through
  # Puppet's own assertion.
  LATER_CASE = {
    'hiera.yaml' => "version: 5\n",
    'environments/production/hiera.yaml' => "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    'environments/production/data/common.yaml' =>
      "later::v: \"later %{later}\"\nlater::w: \"each %{item} %{later}\"\nlater::n: \"node %{nodevar} %{late_node}\"\n",
    'environments/production/modules/later/manifests/init.pp' =>
      "class later {\n  notify { \"before: ${lookup('later::w')} ${lookup('later::n')} ${lookup('later::v')}\": }\n" \
      "  $later = 'set'\n  notify { \"after: ${lookup('later::v')} ${lookup('later::n')}\": }\n" \
      "  ['a', 'b'].each |$item| { notify { \"each ${item}: ${lookup('later::w')} ${lookup('later::v')}\": } }\n" \
      "  notify { \"out: ${lookup('later::w')} ${lookup('later::none', String, 'first', 'dflt')}\": }\n}\n",
    'environments/production/modules/later/manifests/again.pp' =>
      "class later::again {\n  notify { \"again: ${lookup('later::v')} ${lookup('later::n')}\": }\n}\n",
  }.freeze

  def test_a_scope_sees_the_variables_it_gains_after_a_lookup
    Dir.mktmpdir do |dir|
      write(dir, LATER_CASE)
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' },
               'settings' => { 'strict' => 'warning' } }
      code = "node default {\n  $nodevar = 'n1'\n  include later\n  $late_node = 'n2'\n  include later::again\n" \
             "  notify { \"node: ${lookup('later::n')} ${lookup('later::v')}\": }\n}\n"
      puppet, = in_child(handoff: false) { notices(dir, kase, code) }
      ours, st = in_child { notices(dir, kase, code) }
      assert_equal ['before: each   node n1  later ', 'after: later set node n1 ', 'each a: each a set later set',
                    'each b: each b set later set', 'out: each  set dflt', 'again: later  node n1 n2',
                    'node: node n1 n2 later '], puppet
      assert_equal puppet, ours
      assert_equal 15, st[:handed_off], st.inspect
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
    end
  end

  # A lambda of the top scope pushes a table on the top scope's ephemeral
  # stack: its parameters and variables are seen by a lookup made while it
  # runs, from the top scope or from a class it includes, and by no lookup
  # after it; each iteration's own. (The root session reads the top scope's
  # own table by name: these must come from the lookup's scope.)
  LAMBDA_CASE = {
    'hiera.yaml' => "version: 5\n",
    'environments/production/hiera.yaml' => "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    'environments/production/data/common.yaml' => "k: \"x is %{x}, y is %{y}, top is %{t}\"\n",
    'environments/production/modules/lam/manifests/c.pp' =>
      "class lam::c {\n  [3, 4].each |$x| { notify { \"c ${x}: ${lookup('k')}\": } }\n}\n",
    'environments/production/modules/lam/manifests/d.pp' =>
      "class lam::d {\n  notify { \"d: ${lookup('k')}\": }\n}\n",
  }.freeze

  def test_a_top_scope_lambda_variables_are_seen_while_it_runs
    Dir.mktmpdir do |dir|
      write(dir, LAMBDA_CASE)
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' },
               'settings' => { 'strict' => 'warning' } }
      code = "$t = 'T'\n[1, 2].each |$x| { $y = \"Y${x}\"; notify { \"top ${x}: ${lookup('k')}\": } }\n" \
             "notify { \"after: ${lookup('k')}\": }\ninclude lam::c\n" \
             "[5].each |$x| { $y = 'Y5'; include lam::d }\n[6, 7].each |$x| { notify { \"top ${x}: ${lookup('k')}\": } }\n"
      puppet, = in_child(handoff: false) { notices(dir, kase, code) }
      ours, st = in_child { notices(dir, kase, code) }
      assert_equal ['top 1: x is 1, y is Y1, top is T', 'top 2: x is 2, y is Y2, top is T',
                    'after: x is , y is , top is T', 'c 3: x is 3, y is , top is T', 'c 4: x is 4, y is , top is T',
                    'd: x is 5, y is Y5, top is T', 'top 6: x is 6, y is , top is T',
                    'top 7: x is 7, y is , top is T'], puppet
      assert_equal puppet, ours
      assert_equal 8, st[:handed_off], st.inspect
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
    end
  end

  HOCON_CASE = {
    'hiera.yaml' => "version: 5\n",
    'environments/production/hiera.yaml' =>
      "version: 5\nhierarchy:\n  - name: yaml\n    path: common.yaml\n" \
      "  - name: missing\n    data_hash: hocon_data\n    path: missing.conf\n" \
      "  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n",
    'environments/production/data/common.yaml' => "in_yaml: y\n",
    'environments/production/data/common.conf' => "in_hocon: h\n",
  }.freeze

  # Without the hocon library, Puppet's hocon_data fails when a lookup
  # reaches an existing file of its level ("not supported without hocon
  # library"); the hand-off has Puppet's own function run for libhiera's
  # (host_functions), so it answers those lookups with Puppet's error, and
  # the others as usual: no lookup declined.
  def test_without_the_hocon_library_puppets_hocon_data_fails_inside_the_handed_off_lookup
    Dir.mktmpdir do |dir|
      write(dir, HOCON_CASE)
      kase = { 'node' => { 'certname' => 'web01' } }
      outcomes = lambda do
        # In the forked child only (Puppet's features answer by
        # method_missing, which minitest's stub cannot replace).
        ::Puppet.features.define_singleton_method(:hocon?) { false }
        manifests = %w[in_yaml in_hocon nowhere].map do |key|
          "notify { \"v=${lookup('#{key}', undef, undef, 'dflt')}\": }"
        end
        # a class's parameters: the hand-off's batch of automatic lookups
        manifests << "class c($p = 'dflt') { notify { \"c=${p}\": } }\ninclude c"
        manifests.map do |manifest|
          notices(dir, kase, manifest)
        rescue ::Puppet::Error => e
          "#{e.class}: #{e.message.gsub(dir, 'DIR')}"
        end
      end
      puppet, = in_child(handoff: false, &outcomes)
      ours, st = in_child(&outcomes)
      puppet.each { |o| assert_match(/Lookup using Hocon data_hash function is not supported without hocon library/, o) }
      assert_equal puppet, ours
      assert_equal 4, st[:errors], st.inspect
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
    end
  end

  def test_explanations_are_puppets
    dir = EXAMPLES
    kase = YAML.safe_load(File.read(File.join(dir, 'case.yaml')))
    text, st = in_child do
      out = nil
      PuppetRunner.compile(dir, kase) do |_compiler, scope|
        explainer = Puppet::Pops::Lookup::Explainer.new
        invocation = Puppet::Pops::Lookup::Invocation.new(scope, {}, {}, explainer)
        Puppet::Pops::Lookup.lookup('ntp::servers', nil, nil, false, nil, invocation)
        out = explainer.explain
      end
      out
    end
    assert_includes text, 'Searching for "ntp::servers"'
    assert_equal 1, st[:declined_explain]
  end
end
