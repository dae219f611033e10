# frozen_string_literal: true

require 'set'
require 'tmpdir'
require_relative '../libhiera'

module Libhiera
  # Puppet 7 (Hiera 5) integration.
  #
  # 1. The data_hash functions `libhiera::yaml_data`, `libhiera::json_data`
  #    and `libhiera::data_hash` (lib/puppet/functions/libhiera/) read data
  #    files through libhiera, with Puppet's caching and messages.
  #
  # 2. The hand-off ({accelerate!}): `Puppet::Pops::Lookup::LookupAdapter#lookup`,
  #    the one method every `lookup()`, automatic parameter lookup and
  #    `hiera_*()` call of a catalog compile goes through, hands the whole
  #    key to libhiera: the search of the global, environment and module
  #    layers, lookup_options, merges, interpolation and dotted keys;
  #    `Puppet::Resource::Type#inject_external_parameters` hands a class's
  #    automatic parameter lookups to libhiera in one call; and
  #    `Puppet::Pops::Lookup.lookup` asks the hand-off directly for a
  #    `lookup()` of one name without override or default values
  #    ({LookupFunction}). One libhiera
  #    configuration per (hiera.yaml, environment, modulepath) lives for
  #    the process (its file cache). A compile has one session, of its top
  #    scope's variables (a top-scope variable added later goes to an
  #    overlay on it); a lookup from another scope passes the names of the
  #    variables that scope adds (class parameters and locals, a resource's
  #    title), whose values libhiera asks of the scope only if it reads
  #    them, and what reads none of them is shared by the whole compile.
  #    Class variables named by qualified names (`ntp::params::servers`)
  #    are asked of Puppet's scope likewise. libhiera is given the environment's modulepath
  #    as Puppet made it (`full_modulepath`: environment.conf,
  #    basemodulepath, PUPPETLIB).
  #
  # The hand-off answers only what it answers exactly as Puppet; the rest
  # goes to Puppet's own code, per lookup, for the reasons of the closed
  # list {DECLINE_REASONS}: explanations (`puppet lookup --explain`, and
  # Puppet's `--debug`), `hiera_*()` and global-only lookups, a
  # data_binding_terminus other than hiera, lookups outside a compile's
  # scope or with scope values the wire cannot carry exactly, and
  # environments whose `environment_data_provider` comes from puppet.conf
  # (libhiera reads environment.conf's and metadata.json's Puppet 4 data
  # providers itself, and calls a `function` provider's function through
  # the host). eyaml levels (`eyaml_lookup_key`) are answered by libhiera
  # itself, with Puppet's option values and relative key paths from the
  # process's working directory, as Puppet reads them. Hierarchy functions
  # libhiera does not run itself (custom functions, hocon, Hiera 3
  # backends, Puppet 4 `environment::data` and `<module>::data` functions)
  # are run by Puppet's own providers from inside libhiera's lookup (see
  # {Host}); Puppet's warnings are logged through Puppet's logger.
  module Puppet
    # What the data_hash functions say when hiera.yaml gives them no path
    # (as yaml_data and json_data say it).
    MISSING_PATH = "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml " \
                   'when using this data_hash function'

    @enabled = false
    @engines = {}
    @lock = Mutex.new
    @stats = Hash.new(0)
    @declines_logged = Set.new

    class << self
      # Counts of handed-off and declined lookups (for tests and tuning).
      attr_reader :stats

      # Installs the hand-off (idempotent), and logs that it is on.
      def accelerate!
        require 'puppet'
        adapter = ::Puppet::Pops::Lookup::LookupAdapter
        adapter.prepend(Handoff) unless adapter < Handoff
        type = ::Puppet::Resource::Type
        type.prepend(ClassParameters) unless type < ClassParameters
        # lookup() of one key: Puppet::Pops::Lookup.lookup without its
        # search_and_merge (LookupFunction)
        function = ::Puppet::Pops::Lookup.singleton_class
        function.prepend(LookupFunction) unless function < LookupFunction
        invocation = ::Puppet::Pops::Lookup::Invocation
        invocation.include(InvocationFlags) unless invocation < InvocationFlags
        ephemeral = ::Puppet::Parser::Scope::Ephemeral
        ephemeral.include(EphemeralTable) unless ephemeral < EphemeralTable
        # A line per compile with its counts (compile_log.rb).
        require_relative 'compile_log'
        compiler = ::Puppet::Parser::Compiler.singleton_class
        compiler.prepend(CompileLog) unless compiler < CompileLog
        unless @enabled
          ::Puppet.info("libhiera hand-off: on (libhiera #{Native.hiera_version} from #{Native.path}, " \
                        "answering as Puppet #{puppet_version})")
        end
        @enabled = true
        self
      end

      # Logs why lookups go to Puppet, once per environment and reason.
      # @api private
      def log_decline(environment, why, detail)
        key = [environment.name, why]
        first = @lock.synchronize { @declines_logged.add?(key) }
        return unless first

        text = DECLINE_REASONS[why] || why.to_s
        ::Puppet.info("libhiera hand-off: some lookups in environment #{environment.name} go to Puppet: #{text}" \
                      "#{detail ? " (#{detail})" : ''}")
      end

      # Turns the hand-off off (Puppet's code runs again).
      def decelerate!
        @enabled = false
        self
      end

      def enabled?
        @enabled
      end

      # The libhiera configuration for these options, shared by compiles.
      # @api private
      # `env_data_provider`: the environment.conf's environment_data_provider
      # (libhiera reads it when it opens the configuration: a changed one
      # needs a new configuration); `setting`: Puppet's own (puppet.conf).
      # `host_functions`: libhiera's own functions that Puppet runs instead.
      def engine(hiera_config, environmentpath, environment, strict, modulepath = nil, env_data_provider: nil,
                 setting: nil, host_functions: nil)
        codedir = ::Puppet[:codedir].to_s
        puppet = puppet_version
        key = [hiera_config, environmentpath, environment, strict, codedir, modulepath, puppet, env_data_provider,
               setting, host_functions]
        @lock.synchronize do
          @engines[key] ||= Libhiera::Hiera.new(hiera_config: hiera_config, environmentpath: environmentpath,
                                                environment: environment, strict: strict, codedir: codedir,
                                                modulepath: modulepath, puppet: puppet, host: Host.new,
                                                host_variables: true, host_scope: true,
                                                environment_data_provider: setting, host_functions: host_functions)
        end
      end

      # The Puppet the hand-off runs in, as libhiera's `puppet` option: 8 for
      # Puppet 8 and OpenVox 8 (and later), else 7.
      def puppet_version
        ::Puppet.version.to_i >= 8 ? 8 : 7
      end

      # Forgets the configurations (and their file caches).
      def reset!
        @lock.synchronize do
          @engines.each_value(&:close)
          @engines.clear
          @declines_logged.clear
        end
        @stats.clear
      end

      # The data of a data file for the data_hash functions: `content` is what
      # Puppet's `cached_file_data` read. YAML as `yaml_data` reads it (a
      # document that is not a Hash warns and gives {}, or fails under
      # strict=error), JSON as `json_data`.
      # @api private
      def data_file(format, path, content)
        data = Libhiera.parse_data(format, path, content)
        return data if format == 'json' || data.is_a?(Hash)

        msg = "#{path}: file does not contain a valid yaml hash"
        # Puppet's safe_load gives false for an empty document.
        raise ::Puppet::DataBinding::LookupError, msg if ::Puppet[:strict] == :error && !(data.nil? || data == false)

        ::Puppet.warning(msg)
        {}
      rescue Libhiera::ParseError => e
        raise ::Puppet::DataBinding::LookupError, e.message
      end
    end

    # What the data_hash functions (lib/puppet/functions/libhiera/) share:
    # each function's class extends this module and calls
    # {data_hash_function}.
    # @api private
    module DataHashFunction
      # Declares the function: its options (of the Puppet type
      # `options_type`) name a data file, which is read through Puppet's
      # `cached_file_data` in the format ('yaml' or 'json') the block gives
      # for the options; options without a path fail with `missing_path`.
      def data_hash_function(options_type, missing_path: MISSING_PATH, &format)
        dispatch :data_hash do
          param options_type, :options
          param 'Puppet::LookupContext', :context
        end

        argument_mismatch :missing_path do
          param 'Hash', :options
          param 'Puppet::LookupContext', :context
        end

        define_method(:data_hash) do |options, context|
          path = options['path']
          file_format = format.call(options)
          context.cached_file_data(path) do |content|
            Libhiera::Puppet.data_file(file_format, path, content)
          end
        end

        define_method(:missing_path) { |_options, _context| missing_path }
      end
    end

    # The state of one compile (kept on its LookupAdapter).
    # @api private
    class CompileState
      # `root`: the session of the compile's top scope (every lookup of the
      # compile goes to it, with its scope's own variables as request
      # fields).
      attr_accessor :stamp, :top, :root, :engine, :plan, :hiera3, :terminus
      # The compile's top scope, and its own variable table (or
      # Handoff::NO_TABLE), found at the compile's first lookup.
      attr_accessor :top_scope, :top_table
      # Puppet[:debug], read once per compile by Handoff.plain_adapter
      # (nil until then).
      attr_accessor :debug
      # The keys of the lookups libhiera answered, in order (an Array: the
      # hot path only appends; {#namespaces} reads them when Puppet
      # explains).
      attr_reader :answered
      # Request fields by [names, calling, checked]: the same text for scopes that
      # add the same variables.
      attr_reader :fields
      # Per scope (by identity): the scopes whose variables it sees
      # ({Handoff.chain}).
      attr_reader :scopes
      # The objects host functions returned that the wire cannot carry,
      # passed by reference.
      attr_reader :objects
      # The root session's numbered variable names, as libhiera asked about
      # them ({Host#call}, kind variable with an index): each lookup's
      # scope is checked for these names only.
      attr_reader :known
      # How many names of {#known}, from the first, the hand-off knows.
      attr_reader :checked
      # Request fields by the number of names checked, for scopes that give
      # themselves none of them.
      attr_reader :plain_fields
      # Request fields by the mask of the local names a scope gives itself
      # (Handoff.local_mask) shifted left 32 bits, or'ed with the number of
      # names checked (no Hiera 3 calling variables).
      attr_reader :mask_fields

      def initialize
        @objects = []
        @known = []
        @checked = 0
        @plain_fields = {}
        @mask_fields = {}
        @stack_thread = nil
        @host_stack = nil
        @stamp = nil
        @top = nil
        @top_scope = nil
        @top_table = nil
        @debug = nil
        @root = nil
        @scopes = {}.compare_by_identity
        @fields = {}
        @hiera3 = nil
        @terminus = nil
        @engine = nil
        @answered = []
        @requests = nil
        @namespaces = Set.new
        @namespaced = 0
      end

      # The key namespaces (a module name, or nil) of the lookups libhiera
      # answered: those whose lookup_options Puppet's adapter would have
      # gathered and kept by now ({Handoff#libhiera_prime_options}).
      def namespaces
        while @namespaced < @answered.size
          @namespaces << Handoff.namespace(@answered[@namespaced])
          @namespaced += 1
        end
        @namespaces
      end

      # The request text of a lookup of `key` alone (no merge, override or
      # default values) from a scope whose request fields are `fields`, or
      # nil when `key` is not a String of UTF-8 text. The key's part is
      # {Libhiera::Session.key_request}'s, made once per process (JSON
      # generation is dear in JRuby). The texts are kept per thread across
      # compiles (the same keys are looked up in every compile, mostly from
      # scopes with the same fields; a per-compile cache missed on every
      # key's first lookup, and Session.key_request takes a lock in JRuby):
      # by key, its prefix and the last fields and text made of it. One
      # Thread#[] per compile; at most REQUESTS_MAX keys, then it starts
      # again.
      def key_request(key, fields)
        requests = @requests || (@requests = (Thread.current[REQUESTS] ||= {}))
        entry = requests[key]
        if entry.nil?
          return nil unless key.instance_of?(String) && Libhiera::Session::UTF8_COMPATIBLE[key.encoding] && key.valid_encoding?

          text = Libhiera::Session.key_request(key)
          requests.clear if requests.size >= REQUESTS_MAX
          entry = requests[key] = ["#{text.byteslice(0, text.bytesize - 1)},".freeze, nil, nil]
        end
        last = entry[1]
        return entry[2] if entry[2] && (fields.equal?(last) || fields == last)

        entry[1] = fields
        entry[2] = "#{entry[0]}#{fields}}".freeze
      end
      REQUESTS = :__libhiera_key_requests
      REQUESTS_MAX = 50_000

      # The request text of a lookup of `key` with the merge `merge` (as
      # libhiera's request takes it: Handoff.merge_option) and nothing else
      # from a scope whose request fields are `fields`, or nil when `key` is
      # not a String of UTF-8 text or the merge is not one that
      # {Libhiera::Session.merge_request_prefix} keeps.
      def merge_request(key, merge, fields)
        return nil unless key.instance_of?(String) && Libhiera::Session::UTF8_COMPATIBLE[key.encoding] && key.valid_encoding?

        prefix = Libhiera::Session.merge_request_prefix(key, merge)
        prefix && "#{prefix}#{fields}}"
      end

      # The stack of the invocations of the lookups running on this thread
      # (Thread.current[CURRENT], which host calls read: Host.invocation),
      # kept for the compile's thread: no Thread#[] per lookup (a lock and a
      # Hash in JRuby).
      def host_stack
        thread = Thread.current
        return @host_stack if @stack_thread.equal?(thread)

        @stack_thread = thread
        @host_stack = (thread[CURRENT] ||= [])
      end

      # Notes that libhiera numbered the variable `name` `index`.
      def known!(index, name)
        @known[index] = name
        @checked += 1 while @known[@checked]
      end

      # The names among the first `checked` of {#known}, in order, that a
      # class or resource scope can hold ({Handoff.localizable?}): the only
      # ones a lookup's scope must be searched for. Kept for the last
      # `checked`.
      def local_known(checked)
        return @local_known if @local_known_for == checked

        list = []
        i = 0
        while i < checked
          name = @known[i]
          list << name if Handoff.localizable?(name)
          i += 1
        end
        @local_known_for = checked
        @local_known = list.freeze
      end
    end

    # Included in Puppet::Parser::Scope::Ephemeral (the base of a scope's
    # variable tables) by {Puppet.accelerate!}.
    # @api private
    module EphemeralTable
      # A LocalScope's variables (a Hash), or nil (a MatchScope's or a
      # ParameterScope's, which have none of their own by that name).
      def libhiera_symbols
        symbols = @symbols if defined?(@symbols)
        symbols.is_a?(Hash) ? symbols : nil
      end
    end

    # The invocations of the lookups running on this thread (the innermost
    # last): a host call reaches Puppet's providers through them.
    CURRENT = :__libhiera_puppet_invocations

    # What libhiera asks of Puppet during a handed-off lookup (the
    # `hiera_host` of every configuration the hand-off opens): the
    # hierarchy functions it does not run itself, run by Puppet's own
    # providers for that level, with the lookup's invocation; and Puppet's
    # warnings, logged through Puppet's logger.
    # @api private
    class Host
      def call(call)
        invocation = Host.invocation
        raise ::Puppet::DataBinding::LookupError, 'libhiera: a host call outside of a handed-off lookup' if invocation.nil?
        if call['kind'] == 'variable'
          # the compile's root session's own variable: the top scope's
          return Host.top_variable(call['key']) if call['scope'] == 'top'

          index = call['index']
          invocation.lookup_adapter.send(:libhiera_state).known!(index, call['key']) if index
          return variable(invocation.scope, call['key'])
        end

        provider = entry_provider(invocation, call)
        location = location_of(provider, call['location'])
        key = call['key']
        case call['kind']
        when 'data_hash', 'v4_data_hash'
          # v4_data_hash: a Puppet 4 `function` data provider's
          # `environment::data()` / `<module>::data()`, called by Puppet's
          # own provider (without arguments; a module's hash checked and
          # pruned as Puppet does).
          provider.send(:data_hash, invocation, location)
        when 'lookup_key'
          catch(:no_such_key) { return provider.send(:lookup_key, key, invocation, location, call['merge']) }
          NOT_FOUND
        when 'data_dig'
          lookup_key = ::Puppet::Pops::Lookup::LookupKey.new(key)
          catch(:no_such_key) { return provider.validated_data_dig(lookup_key, invocation, location, call['merge']) }
          NOT_FOUND
        else # hiera3_backend: the whole level, as Puppet searches it
          lookup_key = ::Puppet::Pops::Lookup::LookupKey.new(key)
          catch(:no_such_key) do
            return lookup_key.dig(invocation, provider.unchecked_key_lookup(lookup_key, invocation, call['merge']))
          end
          NOT_FOUND
        end
      end

      def warn(warning)
        if warning['kind']
          ::Puppet.warn_once(warning['kind'], warning['key'], warning['message'], warning['file'], warning['line'])
        else
          ::Puppet.warning(warning['message'])
        end
      end

      # The compile's table of objects passed by reference.
      def objects
        Host.invocation&.lookup_adapter&.send(:libhiera_state)&.objects
      end

      # A variable of the top scope of the compile whose lookup runs on
      # this thread, as the top scope's own table has it (what
      # `to_hash(false, true)` gives: undef values included), or NOT_FOUND.
      # Needs no invocation (a class's batch makes none for it).
      def self.top_variable(name)
        current = Thread.current[CURRENT]&.last
        raise ::Puppet::DataBinding::LookupError, 'libhiera: a host call outside of a handed-off lookup' if current.nil?

        scope = current.is_a?(::Puppet::Parser::Scope) ? current : current.scope
        top = scope.compiler.topscope
        table = Handoff.top_table(top)
        if table.equal?(Handoff::NO_TABLE)
          hash = top.to_hash(false, true)
          return hash.key?(name) ? hash[name] : NOT_FOUND
        end
        table.key?(name) ? table[name] : NOT_FOUND
      end

      # The invocation of the innermost handed-off lookup running on this
      # thread, or nil. A class's batch ({Handoff#libhiera_lookup_keys})
      # pushes its scope instead when Puppet's Invocation.new(scope) would
      # be a plain one (no parent invocation, no debug explainer): it is made
      # here, when a host call first needs it (most batches make none).
      def self.invocation
        stack = Thread.current[CURRENT]
        invocation = stack&.last
        if invocation.is_a?(::Puppet::Parser::Scope)
          invocation = stack[-1] = ::Puppet::Pops::Lookup::Invocation.new(invocation)
        end
        invocation
      end

      private

      # A variable as the lookup's scope finds it: a qualified one (a
      # class's), or a plain one libhiera has not asked about before;
      # NOT_FOUND for one that does not exist (yet): libhiera then treats it
      # as undefined, as Puppet's scope does (and warns as Puppet does).
      def variable(scope, name)
        scope.exist?(name) ? scope.lookupvar(name) : NOT_FOUND
      end

      # Puppet's provider of the hierarchy entry the call names.
      def entry_provider(invocation, call)
        adapter = invocation.lookup_adapter
        layer = case call['layer']
                when 'global' then adapter.send(:global_provider, invocation)
                when 'environment' then adapter.send(:env_provider, invocation)
                else adapter.send(:module_provider, invocation, call['module'])
                end
        entries = layer&.config(invocation)&.configured_data_providers(invocation, layer, call['default_hierarchy'])
        provider = entries && entries[call['index']]
        if provider.nil? || provider.instance_variable_get(:@name) != call['entry']
          raise ::Puppet::DataBinding::LookupError,
                "libhiera: Puppet has no hierarchy entry '#{call['entry']}' at #{call['index']} in the #{call['layer']} layer"
        end
        provider
      end

      def location_of(provider, location)
        return nil if location.nil?

        provider.locations.find { |l| l && l.location.to_s == location } ||
          raise(::Puppet::DataBinding::LookupError, "libhiera: Puppet has no location '#{location}' for #{provider.name}")
      end
    end

    # Why a lookup may still go to Puppet: the closed list (README).
    DECLINE_REASONS = {
      explain: 'explanations (puppet lookup --explain) are Puppet\'s own',
      global_only: 'hiera_*() calls and global-only lookups are answered by Puppet',
      terminus: 'the data_binding_terminus is not hiera',
      scope: 'the lookup is not made from a catalog compile\'s scope',
    }.freeze

    # Prepended to Puppet::Resource::Type by {Puppet.accelerate!}: a class's
    # automatic parameter lookups in one call (Puppet makes one lookup per
    # parameter, each through the whole lookup machinery).
    # @api private
    module ClassParameters
      private

      # Puppet::Resource::Type#inject_external_parameters, the parameters
      # given no value looked up in one call: the same keys, in the same
      # order, each value assigned as Puppet assigns it (by
      # {Handoff#libhiera_lookup_keys}).
      def inject_external_parameters(resource, scope)
        return super unless type == :hostclass && Libhiera::Puppet.enabled?

        batch = libhiera_batch(resource.parameters)
        return if batch.nil?

        # Puppet's Invocation.new(scope) only when Puppet's code will see it
        # (Handoff.plain_adapter): a plain one is made by the host
        # call that needs it (Host.invocation), else never.
        adapter = Handoff.plain_adapter(scope)
        invocation = adapter ? scope : ::Puppet::Pops::Lookup::Invocation.new(scope)
        adapter ||= invocation.lookup_adapter
        super unless adapter.libhiera_lookup_keys(batch, resource, invocation)
      end

      # The {ClassBatch} of the parameters that `parameters` (the class
      # resource's) gives no value, or nil for none. The batch of all the
      # class's parameters (a class that is included: its resource gives
      # none) is kept on the class for its `arguments` (Puppet replaces the
      # Hash when it sets them); another is kept for the last names asked
      # (a declaration's). Loops, not blocks (JRuby).
      def libhiera_batch(parameters)
        args = arguments
        all = @libhiera_all
        all = @libhiera_all = ClassBatch.new(name, args) unless all && all.arguments.equal?(args) && all.size == args.size
        return nil if all.size.zero?
        return all if parameters.empty?

        syms = all.syms
        i = 0
        n = syms.size
        while i < n
          param = parameters[syms[i]]
          break unless param.nil? || param.value.nil?

          i += 1
        end
        return all if i == n

        wanted = args.select do |param_name, _default|
          param = parameters[param_name.to_sym]
          param.nil? || param.value.nil?
        end
        return nil if wanted.empty?

        cached = @libhiera_some
        return cached if cached && cached.arguments == wanted

        @libhiera_some = ClassBatch.new(name, wanted)
      end
    end

    # A class's automatic parameter lookups, as {Handoff#libhiera_lookup_keys}
    # makes them: for each parameter (`arguments`: its name and default
    # expression, as Puppet::Resource::Type#arguments gives them), its
    # Symbol, its key (`<class>::<param>`), whether it has a default, and
    # the keys' text for libhiera (Session.keys_text).
    # @api private
    class ClassBatch
      attr_reader :arguments, :size, :syms, :keys, :defaulted, :text

      def initialize(class_name, arguments)
        @arguments = arguments
        @size = arguments.size
        names = arguments.keys
        @syms = names.map(&:to_sym).freeze
        @keys = names.map { |param_name| "#{class_name}::#{param_name}".freeze }.freeze
        @defaulted = arguments.values.map { |default| !default.nil? }.freeze
        @text = Libhiera::Session.keys_text(@keys)
        freeze
      end
    end

    # Prepended to the singleton class of Puppet::Pops::Lookup by
    # {Puppet.accelerate!}: `Lookup.lookup` (the `lookup()` function) of
    # one String name with no override or default values hash, no block
    # and no explainer asks the hand-off directly ({Handoff#libhiera_answer})
    # instead of through `search_and_merge`, `LookupAdapter#lookup` and
    # their catch of :no_such_key; the value, the default and the failure
    # go through Puppet's own `assert_type` and `fail_lookup`, with the
    # same subjects and messages as its code. Every other call, and a
    # lookup the hand-off declines, runs Puppet's code (which asks the
    # hand-off again, and counts the decline).
    # @api private
    module LookupFunction
      # Puppet::Pops::Lookup.lookup (no block parameter: a captured block
      # costs an object per call in JRuby; `super` passes it on).
      def lookup(name, value_type, default_value, has_default, merge, lookup_invocation)
        if !block_given? && name.instance_of?(String) && Libhiera::Puppet.enabled? &&
           lookup_invocation.explainer.nil? && lookup_invocation.override_values.empty? &&
           (defaults = lookup_invocation.default_values) && defaults.empty?
          value = lookup_invocation.lookup_adapter.libhiera_function_answer(name, lookup_invocation, merge)
          unless value.equal?(Handoff::DECLINED)
            return assert_type('Found value', value_type, value) unless value.equal?(Libhiera::NOT_FOUND)
            return assert_type('Default value', value_type, default_value) if has_default

            # Puppet[:debug] gives every invocation an explainer: none
            # here, so Puppet's emit_debug_info would do nothing.
            fail_lookup([name])
          end
        end
        super
      end
    end

    # Included in Puppet::Pops::Lookup::Invocation by {Puppet.accelerate!}.
    # @api private
    module InvocationFlags
      # Whether the invocation itself is global-only or a hiera_*() call's
      # (Invocation#global_only? without its adapter's part, and
      # #hiera_xxx_call?), read as those read them, without their calls.
      def libhiera_puppets?
        (defined?(@global_only) && @global_only) || defined?(@hiera_xxx_call) ? true : false
      end
    end

    # Prepended to Puppet::Pops::Lookup::LookupAdapter by {Puppet.accelerate!}.
    # @api private
    module Handoff
      LOOKUP_OPTIONS = 'lookup_options'
      LOOKUP_OPTIONS_DOT = 'lookup_options.'
      # What {#libhiera_answer} returns for a lookup Puppet must answer.
      DECLINED = Object.new.freeze

      def lookup(key, lookup_invocation, merge)
        return super unless Libhiera::Puppet.enabled?

        value = libhiera_answer(key, lookup_invocation, merge, true)
        return super if value.equal?(DECLINED)
        throw :no_such_key if value.equal?(Libhiera::NOT_FOUND)

        value
      end

      # What {#lookup} answers: the value, NOT_FOUND, or DECLINED when
      # Puppet must answer (a decline counted and logged unless `count` is
      # false). For {#lookup} and {LookupFunction}.
      # @api private
      def libhiera_answer(key, lookup_invocation, merge, count)
        fields = libhiera_session(key, lookup_invocation, count)
        return DECLINED if fields.nil?

        state = @libhiera_state
        session = state.root
        override = lookup_invocation.override_values
        defaults = lookup_invocation.default_values
        # The invocation on the stack of host calls while libhiera runs,
        # its errors raised as Puppet raises them (Handoff.failure); inline,
        # as in libhiera_lookup_keys: a block that reads this method's
        # variables puts them on the heap in JRuby.
        stack = state.host_stack
        stack.push(lookup_invocation)
        begin
          value = if override.empty? && defaults.empty? &&
                     (request = merge.nil? ? state.key_request(key, fields) : state.merge_request(key, Handoff.merge_option(merge), fields))
                    # the common case: the request text made without JSON
                    # generation, and no keyword arguments (dear in JRuby)
                    session.lookup_request(request)
                  else
                    session.lookup(key, merge: Handoff.merge_option(merge), override: Handoff.presence(override),
                                        default_values_hash: Handoff.presence(defaults), scope_fields: fields)
                  end
        rescue StandardError => e
          raise Handoff.failure(e)
        ensure
          stack.pop
        end
        Libhiera::Puppet.stats[:handed_off] += 1
        libhiera_record(key)
        state.answered << key
        value
      end

      # {#libhiera_answer} for {LookupFunction}, which has checked that the
      # invocation has no explainer and no override or default values (the
      # decline not counted): once the compile is settled
      # (@libhiera_ready, see {#libhiera_session}), its checks and the
      # lookup in one method, without the calls that read again what the
      # caller read (JRuby: each Ruby call costs more than its work here).
      # Anything else (not settled, a decline, a request text that
      # {CompileState#key_request} does not make) goes to
      # {#libhiera_answer}, which answers it as before.
      # @api private
      def libhiera_function_answer(key, invocation, merge)
        state = @libhiera_ready
        scope = invocation.scope
        # libhiera_session's declines (global-only, hiera_*(), the
        # lookup_options key) and its settled test, in its order
        if state.nil? || (defined?(@global_only) && @global_only) || invocation.libhiera_puppets? ||
           key == LOOKUP_OPTIONS || key.start_with?(LOOKUP_OPTIONS_DOT) ||
           !(state.stamp == state.top_table.size) || !scope.is_a?(::Puppet::Parser::Scope)
          return libhiera_answer(key, invocation, merge, false)
        end

        begin
          fields = scope_fields(state, scope, state.top_scope, invocation)
        rescue Libhiera::Wire::Unrepresentable, Libhiera::InvalidArgumentError
          # libhiera_session's decline(:scope), not counted
          return DECLINED
        end
        stack = state.host_stack
        stack.push(invocation)
        begin
          request = merge.nil? ? state.key_request(key, fields) : state.merge_request(key, Handoff.merge_option(merge), fields)
          value = state.root.lookup_request(request) if request
        rescue StandardError => e
          raise Handoff.failure(e)
        ensure
          stack.pop
        end
        return libhiera_answer(key, invocation, merge, false) if request.nil?

        Libhiera::Puppet.stats[:handed_off] += 1
        @key_recorder&.record(key)
        state.answered << key
        value
      end

      # A class's automatic parameter lookups (`batch`, a {ClassBatch}) in
      # one call, each value assigned to `resource` as Puppet's
      # inject_external_parameters assigns what {#lookup} answers: in
      # order, a key not found left alone, an undef not assigned over a
      # default expression; the first that fails raises as {#lookup}
      # raises, after the values before it were assigned. False when Puppet
      # must answer them (one by one, through {#lookup}, which counts why).
      # @api private
      #
      # `invocation` may be the class's scope instead, when
      # {.plain_adapter} gave this adapter: Invocation.new(scope)
      # would be a plain one (no explainer, no Hiera 3 flags), so the checks
      # of {#libhiera_session} that read it are known to pass.
      def libhiera_lookup_keys(batch, resource, invocation)
        keys = batch.keys
        fields = if invocation.is_a?(::Puppet::Parser::Scope)
                   libhiera_scope_fields(invocation)
                 else
                   libhiera_session(keys[0], invocation, false)
                 end
        return false if fields.nil?

        state = @libhiera_state
        state.answered << keys[0]
        session = state.root
        stack = state.host_stack
        stack.push(invocation)
        begin
          # the answers as a table (Wire.answers_table): no Hash read per
          # answer, the same table for the same text in every compile
          table = session.lookup_keys_table(batch.text, fields)
        rescue StandardError => e
          raise Handoff.failure(e)
        ensure
          stack.pop
        end
        # Each answer in turn (a loop, not blocks: JRuby), as Puppet assigns
        # each parameter before it looks the next one up. (The answered
        # keys counted once per batch, before the first error is raised;
        # Puppet's key recorder read once.)
        values = table[0]
        kinds = table[1]
        syms = batch.syms
        defaulted = batch.defaulted
        recorder = @key_recorder
        i = 0
        n = kinds.size
        while i < n
          kind = kinds[i]
          if kind == Libhiera::Wire::ANSWER_VALUE
            recorder&.record(keys[i])
            value = values[i]
            # Assign bound value but don't let an undef trump a default expression
            resource[syms[i]] = value unless value.nil? && defaulted[i]
          elsif kind == Libhiera::Wire::ANSWER_COPY
            recorder&.record(keys[i])
            # a shared Array or Hash: the caller's copy (Wire.fresh)
            resource[syms[i]] = Libhiera::Wire.fresh(values[i])
          elsif kind == Libhiera::Wire::ANSWER_ERROR
            Libhiera::Puppet.stats[:handed_off] += i
            # as libhiera_answer raises it (counted; a host function's
            # error that is not Puppet's raised as it is)
            raise Handoff.failure(session.key_error(values[i]))
          else # not found
            recorder&.record(keys[i])
          end
          i += 1
        end
        Libhiera::Puppet.stats[:handed_off] += n
        true
      end

      # The adapter of `scope`'s compile when Puppet's
      # `Invocation.new(scope)` would be a plain invocation of it (no
      # parent invocation running, so no inherited explainer or Hiera 3
      # flags, and no debug explainer: Puppet[:debug], read once per
      # compile) and its hand-off is settled ({#libhiera_session}'s
      # @libhiera_ready, with the Hiera 3 check made): then a class's batch
      # needs no invocation unless a host call asks for one. Else nil.
      # @api private
      def self.plain_adapter(scope)
        return nil unless ::Puppet::Pops::Lookup::Invocation.current.nil?

        ::Puppet::Pops::Lookup::LookupAdapter.adapt(scope.compiler).libhiera_plain
      end

      # {.plain_adapter}'s test of its adapter (self): self when its
      # compile is settled, its Hiera 3 check made, not global-only and
      # not debugging, else nil.
      # @api private
      def libhiera_plain
        state = @libhiera_ready
        return nil if state.nil? || state.hiera3.nil? || (defined?(@global_only) && @global_only)

        state.debug = ::Puppet[:debug] ? true : false if state.debug.nil?
        state.debug ? nil : self
      end

      # {#libhiera_session} for a class's batch from `scope` with no
      # invocation ({Handoff.plain_adapter}): nil when Puppet must answer
      # (not counted, as the batch's declines are not).
      def libhiera_scope_fields(scope)
        state = @libhiera_ready
        return nil unless state.stamp == state.top_table.size && scope.is_a?(::Puppet::Parser::Scope)

        # no invocation: state.hiera3 is known (Handoff.plain_adapter)
        scope_fields(state, scope, state.top_scope, nil)
      rescue Libhiera::Wire::Unrepresentable, Libhiera::InvalidArgumentError
        nil
      end

      # What a handed-off lookup that failed with `error` raises (counted):
      # Puppet's LookupError as it is; libhiera's errors as a LookupError
      # of their message; another Puppet error (a host function's) as
      # Puppet's Invocation#check passes it on.
      def self.failure(error)
        Libhiera::Puppet.stats[:errors] += 1
        case error
        when ::Puppet::DataBinding::LookupError then error
        when Libhiera::Error then ::Puppet::DataBinding::LookupError.new(error.message)
        when ::Puppet::Error then ::Puppet::DataBinding::LookupError.new(error.message, nil, nil, nil, error)
        # Anything else a host function raised, passed on as Puppet passes it
        # (Puppet's loader raises ArgumentError for a function that fails to
        # load, e.g. hocon_data without the hocon library).
        else error
        end
      end

      # The module namespace of a key (LookupKey#module_name, near enough:
      # quoted segments are not parsed), or nil.
      def self.namespace(key)
        dot = key.index('.')
        root = dot ? key[0, dot] : key
        sep = root.index('::')
        sep ? root[0, sep] : nil
      end

      # The merge argument as libhiera's request takes it.
      def self.merge_option(merge)
        case merge
        when nil then nil
        when ::Puppet::Pops::MergeStrategy then merge.configuration
        else merge
        end
      end

      def self.presence(hash)
        hash.nil? || hash.empty? ? nil : hash
      end

      private

      def libhiera_state
        @libhiera_state ||= CompileState.new
      end

      def libhiera_record(key)
        @key_recorder&.record(key)
      end

      # Readies the compile's session (the state's `root`) for this lookup
      # and returns the request fields of its scope ({#scope_fields}), or nil
      # when Puppet must answer (a decline, counted unless `count` is false).
      def libhiera_session(key, invocation, count = true)
        unless invocation.explainer.nil?
          libhiera_prime_options(key, invocation)
          return decline(:explain, nil, count)
        end
        # invocation.global_only? || invocation.hiera_xxx_call?: the
        # adapter's flag (this is the adapter: LookupAdapter#global_only?)
        # and the invocation's, read without the calls of those methods.
        if (defined?(@global_only) && @global_only) || invocation.libhiera_puppets?
          return decline(:global_only, nil, count)
        end
        return decline(:lookup_options, nil, count) if key == LOOKUP_OPTIONS || key.start_with?(LOOKUP_OPTIONS_DOT)

        scope = invocation.scope
        # The compile's settled state (@libhiera_ready, set below once the
        # terminus, engine, top scope and its table are known): only what
        # changes between lookups is checked (the top scope's table size,
        # the scope), in fewer steps (JRuby).
        state = @libhiera_ready
        if state && state.stamp == state.top_table.size && scope.is_a?(::Puppet::Parser::Scope)
          return scope_fields(state, scope, state.top_scope, invocation)
        end

        state = libhiera_state
        # The setting, read once per compile.
        state.terminus = %w[hiera].include?(::Puppet[:data_binding_terminus].to_s) if state.terminus.nil?
        return decline(:terminus, nil, count) unless state.terminus
        return decline(:scope, nil, count) unless scope.is_a?(::Puppet::Parser::Scope)

        state.engine ||= libhiera_engine

        # The compile's top scope and its variable table, once per compile
        # (the adapter is the compiler's; a scope's table is made with it).
        top = state.top_scope ||= scope.compiler.topscope
        table = state.top_table ||= Handoff.top_table(top)
        stamp = table.equal?(Handoff::NO_TABLE) ? Handoff.top_stamp(top) : table.size
        unless state.stamp == stamp
          # The top scope's variables are read by name as lookups need
          # them (Host.top_variable, once per session: the engine's
          # host_scope), never sent whole: the root session is made empty,
          # and the variables the top scope gains later go to an overlay.
          # A shallow copy of the table tells which (Puppet variables are
          # added, never reassigned).
          hash = table.equal?(Handoff::NO_TABLE) ? top.to_hash(false, true) : table
          if state.root.nil? && !table.equal?(Handoff::NO_TABLE)
            state.plan = Handoff.plan? if state.plan.nil?
            state.root = state.engine.session({}, strict: true, plan: state.plan)
            state.root.objects = state.objects
            state.root.share_answers = true
            state.root.own!
            state.top = table.dup
            state.scopes.clear
          elsif !(hash == state.top)
            # A session of the top scope's variables, made once per compile;
            # the variables added to the top scope later go to an overlay on
            # it (sharing what it computed). Every other scope's lookups go
            # to an overlay of the variables it adds.
            if state.root.nil?
              state.plan = Handoff.plan? if state.plan.nil?
              state.root = state.engine.session(hash, strict: true, plan: state.plan)
              state.root.objects = state.objects
              state.root.share_answers = true
              # the compile's thread is its only user (Session#own!: no
              # locking per call); its overlays are owned too
              state.root.own!
            else
              added = hash.reject { |k, v| state.top.key?(k) && state.top[k].equal?(v) }
              state.root = state.root.overlay(added, strict: true)
            end
            state.top = table.equal?(Handoff::NO_TABLE) ? hash : table.dup
            state.scopes.clear
          end
          state.stamp = stamp
        end
        # settled: the top scope's table is a Hash whose size is the stamp
        @libhiera_ready = state unless table.equal?(Handoff::NO_TABLE)
        scope_fields(state, scope, top, invocation)
      rescue Libhiera::Wire::Unrepresentable, Libhiera::InvalidArgumentError => e
        decline(:scope, e.message, count)
      end

      # The request fields of a lookup from `scope`: how many of the
      # session's numbered variable names it checked (`known_variables`),
      # which of them the scope gives itself beyond the top scope (class
      # parameters and locals, a resource's title: libhiera asks the scope
      # for the values it reads, {Host#call}, as it asks for the names it
      # has not numbered yet), and its Hiera 3 calling variables. The text
      # is shared by the scopes that give the same.
      #
      # Read again for every lookup: a scope's tables change between its
      # lookups (a class's parameters are set after their batch, and the
      # generated and real repos' classes assign a variable between two
      # lookup() calls), so that fields kept per scope and checked by the
      # tables' sizes were never reused (334 reads for 337 lookups per
      # compile on the generated repo) and cost more than they saved.
      #
      # Only the names a class or resource scope can hold are searched for
      # (CompileState#local_known): when the hierarchies and data name only
      # facts, trusted and qualified variables, no scope is walked at all.
      #
      # Which names the scope holds is a bit mask over the local names
      # ({Handoff.local_mask}), and the fields are kept by it and `checked`
      # (an Integer key): no Array made or hashed per lookup (JRuby).
      def scope_fields(state, scope, top, invocation)
        checked = state.checked
        locals = state.local_known(checked)
        if locals.empty?
          mask = 0
          # the scopes between `scope` and the top scope (Handoff.chain) are
          # none only for the top scope itself
          local = !scope.equal?(top)
        else
          chain = (state.scopes[scope] ||= Handoff.chain(scope, top))
          # a lambda's (or a match's) variables of the top scope, above
          # its table, are as local as a class's: lookupvar ends there
          mask = Handoff.local_mask(chain, locals) | Handoff.top_local_mask(top, locals)
          local = !chain.empty?
        end
        # calling_* only matter to a Hiera 3 global hiera.yaml.
        if local && libhiera_hiera3_global?(state, invocation)
          names = Handoff.masked(locals, mask)
          calling = Handoff.calling(scope)
          return state.fields[[names, calling, checked]] ||= Libhiera::Session.scope_fields(names, calling, known_variables: checked)
        end
        if mask.zero?
          return state.plain_fields[checked] ||= Libhiera::Session.scope_fields(nil, nil, known_variables: checked)
        end

        state.mask_fields[(mask << 32) | checked] ||=
          Libhiera::Session.scope_fields(Handoff.masked(locals, mask), nil, known_variables: checked)
      end

      # Whether the global hiera.yaml is a Hiera 3 one (whose hierarchy
      # sees the calling_* variables), once per compile.
      def libhiera_hiera3_global?(state, invocation)
        return state.hiera3 unless state.hiera3.nil?

        state.hiera3 = begin
          global_provider(invocation)&.config(invocation)&.version == 3
        rescue StandardError
          true
        end
      end

      # Before Puppet explains a lookup: Puppet's adapter keeps the
      # lookup_options it gathers for the rest of the compile, so after
      # earlier lookups of the key's namespace (and, for a key outside
      # modules, after any lookup) it does not gather, nor explain, them
      # again. Those lookups were libhiera's: the adapter gathers them now,
      # unexplained, as it would have then. Failures are left for the
      # explained lookup to meet.
      def libhiera_prime_options(key, invocation)
        state = @libhiera_state
        return if state.nil? || state.answered.empty?

        lookup_key = ::Puppet::Pops::Lookup::LookupKey.new(key)
        namespace = lookup_key.module_name
        return unless namespace.nil? || state.namespaces.include?(namespace)
        return if @lookup_options.include?(namespace)

        silent = ::Puppet::Pops::Lookup::Invocation.new(invocation.scope, {}, {}, false)
        silent.lookup(lookup_key, namespace) { lookup_lookup_options(lookup_key, silent) }
      rescue StandardError
        nil
      end

      def decline(why, detail = nil, count = true)
        return nil unless count

        Libhiera::Puppet.stats[:"declined_#{why}"] += 1
        Libhiera::Puppet.log_decline(environment, why, detail)
        nil
      end

      # The libhiera configuration for this compile's environment. libhiera
      # reads the Puppet 4 data providers of environment.conf and of the
      # modules' metadata.json itself, and is given Puppet's
      # `environment_data_provider` setting (puppet.conf, the default of
      # environment.conf's).
      def libhiera_engine
        env = environment
        conf = env.configuration
        env_dir = conf&.path_to_env
        env_data_provider = nil
        setting = ::Puppet[:environment_data_provider]
        setting = nil if setting.nil? || setting.to_s.empty?
        if env_dir
          env_dir = File.expand_path(env_dir)
          environmentpath = File.dirname(env_dir)
          name = File.basename(env_dir)
          env_data_provider = conf.respond_to?(:raw_setting) ? conf.raw_setting(:environment_data_provider) : nil
        else
          # an environment without a directory: no environment layer
          environmentpath = File.join(Dir.tmpdir, 'libhiera-no-environments')
          name = env.name.to_s
        end
        strict = ::Puppet[:strict].to_s
        strict = 'warning' unless %w[off warning error].include?(strict)
        # The modulepath Puppet searches (libhiera finds the same first module
        # of each name in it).
        modulepath = env.full_modulepath.map(&:to_s)
        # libhiera reads hocon_data itself; without the hocon library
        # Puppet's hocon_data fails ("not supported without hocon library"),
        # so then Puppet's own function runs for libhiera (through the host,
        # as a custom function does) and fails as in Puppet.
        host_functions = ::Puppet.features.hocon? ? nil : HOCON_FUNCTIONS
        Libhiera::Puppet.engine(global_hiera_config_path.to_s, environmentpath, name, strict, modulepath,
                                env_data_provider: env_data_provider, setting: setting&.to_s,
                                host_functions: host_functions)
      end

      # The functions Puppet runs for libhiera when it has no hocon library.
      HOCON_FUNCTIONS = ['hocon_data'].freeze

      # Whether the compile is a plan's (Puppet's script compiler).
      def self.plan?
        (defined?(::Puppet::Pal::ScriptCompiler) && ::Puppet.lookup(:pal_compiler) { nil }.is_a?(::Puppet::Pal::ScriptCompiler)) || false
      end

      # The variables Puppet's Hiera::Scope adds for a Hiera 3 global layer
      # (`calling_class`, `calling_class_path`, `calling_module`), as
      # Hiera::Scope#[] computes them; kept on the scope (they never change).
      def self.calling(scope)
        cached = scope.instance_variable_get(:@libhiera_calling)
        return cached if cached

        h = {}
        klass = hostclass(scope)
        if klass
          h['calling_class'] = klass
          h['calling_class_path'] = klass.gsub('::', '/')
        end
        mod = scope.exist?('module_name') ? scope['module_name'] : nil
        h['calling_module'] = mod if mod.is_a?(String) && !mod.empty?
        scope.instance_variable_set(:@libhiera_calling, h.freeze)
      end

      # Hiera::Scope#find_hostclass.
      def self.hostclass(scope)
        while scope
          return scope.source.name.downcase if scope.source && scope.source.type == :hostclass

          scope = scope.parent
        end
        nil
      end

      # The top scope's own variable table (a Hash, made with the scope), or
      # NO_TABLE when this Puppet keeps it otherwise.
      def self.top_table(top)
        table = top.instance_variable_get(:@symtable)
        symbols = table&.instance_variable_get(:@symbols)
        symbols.is_a?(Hash) ? symbols : NO_TABLE
      end
      NO_TABLE = Object.new.freeze

      # What changes when a top-scope variable is set (Puppet variables
      # are never reassigned, only added), for a Puppet whose top scope has
      # no table {top_table} reads (with one, its size is the stamp).
      def self.top_stamp(top)
        top.to_hash(false, true).size
      end

      # The scopes between `scope` and the top scope, `scope` first (as
      # lookupvar walks them: inherited before enclosing).
      def self.chain(scope, top)
        chain = []
        while scope && !scope.equal?(top)
          chain << scope
          scope = scope.inherited_scope || scope.enclosing_scope
        end
        chain
      end

      # Which of `known` (CompileState#local_known) the scopes of `chain`
      # ({chain}) hold, as a bit mask (bit i: `known[i]`): those a lookup
      # from its first scope sees that the top scope does not give. Each
      # scope's tables: the one on top of its ephemeral stack
      # (Scope#effective_symtable) and those below it. Loops, not blocks:
      # this runs for every lookup, and a block costs more than its work in
      # JRuby; no Array made unless a scope has two tables with variables.
      def self.local_mask(chain, known)
        return 0 if chain.empty? || known.empty?

        mask = 0
        c = 0
        while c < chain.size
          mask = tables_mask(chain[c].effective_symtable(true), nil, known, mask)
          c += 1
        end
        mask
      end

      # Which of `known` the top scope's ephemeral tables above its own
      # table hold (a top-level lambda's parameters and variables, while it
      # runs), as {local_mask} gives them for the other scopes: a lookup
      # from any scope ends its lookupvar in the top scope's innermost
      # table, and these are not the root session's (the top scope's table,
      # read by name). 0 when no lambda of the top scope runs.
      def self.top_local_mask(top, known)
        tables_mask(top.effective_symtable(true), top.instance_variable_get(:@symtable), known, 0)
      end

      # `mask` with the bits of `known` that the tables from `eph` down its
      # parents to `stop` (excluded; nil: to the last) hold.
      def self.tables_mask(eph, stop, known, mask)
        checked = known.size
        while eph && !eph.equal?(stop)
          symbols = eph.libhiera_symbols
          if symbols && !symbols.empty?
            i = 0
            while i < checked
              mask |= (1 << i) if symbols.key?(known[i])
              i += 1
            end
          end
          eph = eph.parent
        end
        mask
      end

      # The names of `known` whose bits `mask` sets ({local_mask}), in
      # order, frozen (NO_NAMES for none).
      def self.masked(known, mask)
        return NO_NAMES if mask.zero?

        names = []
        i = 0
        while i < known.size
          names << known[i] if mask[i] == 1
          i += 1
        end
        names.freeze
      end

      # Which of `known` the scopes of `chain` hold, in order
      # ({local_mask} as names).
      def self.local_names(chain, known)
        masked(known, local_mask(chain, known))
      end
      NO_NAMES = [].freeze

      # Variables no class or resource scope holds: Puppet's scopes refuse
      # to set these but in the top scope (Scope#setvar: "Attempt to assign
      # to a reserved variable name"). A class or define parameter of one
      # of these names (`class c(Hash $facts = {}, $x = lookup('c::x'))`)
      # is the one case Puppet's lookup would see in a ParameterScope; that
      # compile fails on the reserved name anyway, so only which error comes
      # first can differ.
      NEVER_LOCAL = { 'facts' => true, 'trusted' => true, 'server_facts' => true }.freeze

      # Whether a class or resource scope can hold the variable `name`:
      # not a qualified name (`::datacenter`, `ntp::servers`: a scope's
      # tables hold plain names only) and not one of {NEVER_LOCAL}.
      def self.localizable?(name)
        !(NEVER_LOCAL[name] || name.include?('::'))
      end
    end
  end
end

# LIBHIERA_HANDOFF=1 (or true, yes, on: Libhiera::Startup.switch) installs
# the hand-off when this file is loaded (by the gem's functions, or
# `RUBYOPT=-rlibhiera/puppet`); LIBHIERA_STATS=1 prints the hand-off's counts
# on stderr at exit. Puppet Server: lib/puppet/indirector/data_binding/libhiera.rb.
require_relative 'startup'
if Libhiera::Startup.switch(ENV['LIBHIERA_HANDOFF']) == :on
  Libhiera::Puppet.accelerate!
  at_exit { warn "libhiera hand-off: #{Libhiera::Puppet.stats.sort.to_h}" } if ENV['LIBHIERA_STATS'] == '1'
end
