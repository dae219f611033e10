//! The variables an interpolation or a hierarchy path reads: the session's
//! scope, the host's variables, `Hiera::Scope`'s, strict mode's undefined
//! variable warnings and errors, and scope expressions.

use super::*;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::key::{dig, split_key};
use crate::hiera5::known_variables::UNREGISTERED;
use crate::host::Warning;
use crate::value::{Key, Value};
use std::path::Path;

impl Invocation<'_> {
    pub(super) fn with_local<T>(
        &mut self,
        var: &str,
        value: Value,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.locals.push((var.to_string(), value));
        let r = f(self);
        self.locals.pop();
        r
    }

    /// A scope variable: overrides, local bindings, scope (and the
    /// `settings::` the engine knows); not the default values.
    pub(super) fn variable(&self, written: &str) -> Option<Value> {
        let name = written.strip_prefix("::").unwrap_or(written);
        self.read(name);
        if let Some(v) = self.req.override_values.get(&Key(name)) {
            return Some(v.clone());
        }
        // Hiera::Scope#[] knows them by their bare names (`::calling_module`
        // is an ordinary, undefined, variable).
        if HIERA3_CALLING_KEYS.contains(&written) && self.in_hiera3_layer() {
            let calling = self
                .req
                .hiera3_variables
                .as_ref()
                .unwrap_or(&self.session.options.hiera3_variables);
            return match calling.get(&Key(name)) {
                Some(Value::String(s)) if s.is_empty() => Some(Value::Nil),
                Some(v) => Some(v.clone()),
                None => Some(Value::Nil),
            };
        }
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        // `::x` is the top scope's x (Puppet's `lookup_qualified_variable`),
        // never a class's own.
        if written.starts_with("::") {
            return self.session_variable(name);
        }
        if self.req.local_variables.iter().any(|l| l == name) {
            return self.asked_variable(name, None);
        }
        if !name.contains("::") {
            let known = self.session.known_variables();
            if let Some(checked) = self.req.known_variables {
                let index = known.register(name);
                if index >= checked {
                    return self.unchecked_variable(name, index);
                }
            } else if !self.unregistered_noted.get() && known.index(name).is_none() {
                self.read(UNREGISTERED);
                self.unregistered_noted.set(true);
            }
        }
        self.session_variable(name)
    }

    /// A variable of a known-variables lookup that its host had not
    /// checked: the host's answer, for the lookup's scope. When it differs
    /// from the session's, the scope has its own: what read it is not kept.
    pub(super) fn unchecked_variable(&self, name: &str, index: usize) -> Option<Value> {
        let theirs = self.asked_variable(name, Some(index));
        let ours = self.session_variable(name);
        if theirs != ours {
            self.read(VOLATILE);
        }
        theirs
    }

    /// A variable as the session has it (its scope, deferred and parent's
    /// variables, the settings the engine knows, the host's qualified
    /// variables).
    pub(super) fn session_variable(&self, name: &str) -> Option<Value> {
        let session = self.session;
        if let Some(v) = session.scope.get(&Key(name)) {
            return Some(v.clone());
        }
        if let Some(slot) = session.deferred.get(name) {
            return slot.get_or_init(|| self.asked_variable(name, None)).clone();
        }
        if let Some(v) = session
            .parent
            .as_ref()
            .and_then(|p| p.scope.get(&Key(name)))
        {
            return Some(v.clone());
        }
        if session.hiera.options.host_scope && !name.contains("::") {
            return self.top_variable(name);
        }
        if let Some(setting) = name.strip_prefix("settings::") {
            let o = &self.session.hiera.options;
            let abs = |p: &Path| {
                std::path::absolute(p)
                    .unwrap_or_else(|_| p.to_path_buf())
                    .to_string_lossy()
                    .to_string()
            };
            match setting {
                "hiera_config" => return Some(Value::from(abs(&o.hiera_config))),
                "environmentpath" => return Some(Value::from(abs(&o.environmentpath))),
                "environment" => return Some(Value::from(o.environment.as_str())),
                "codedir" => return Some(Value::from(abs(&o.codedir))),
                _ => {}
            }
        }
        self.host_variable(name)
    }

    /// A qualified variable from the host, when it answers them. One it
    /// does not have may be defined later in the compile: what read it is
    /// not kept (the read [`VOLATILE`] says so).
    pub(super) fn host_variable(&self, name: &str) -> Option<Value> {
        let options = &self.session.hiera.options;
        if !options.host_variables || !name.contains("::") {
            return None;
        }
        let found = self.asked_variable(name, None);
        if found.is_none() {
            self.read(VOLATILE);
        }
        found
    }

    /// A plain variable of the session's own scope that it was not given,
    /// asked of the host ([`crate::Options::host_scope`]) once per session
    /// (kept with the session's known variables, shared by its overlays).
    /// Not kept when it could not be asked (no room left on the stack):
    /// then undefined, as [`Invocation::asked_variable`] makes it.
    pub(super) fn top_variable(&self, name: &str) -> Option<Value> {
        let host = self.session.hiera.options.host.as_ref()?;
        self.session
            .known_variables()
            .top_value(name, || {
                crate::stack::check_lookup(name).ok()?;
                Some(host.0.top_variable(name))
            })
            .flatten()
    }

    /// A variable asked of the host, once per lookup: on the thread's own
    /// stack, with room left for the call. `index`: the name's number among
    /// the session's known variables, for a name the host has not checked.
    pub(super) fn asked_variable(&self, name: &str, index: Option<usize>) -> Option<Value> {
        if let Some((_, v)) = self.asked.borrow().iter().find(|(n, _)| **n == *name) {
            return v.clone();
        }
        let host = self.session.hiera.options.host.as_ref()?;
        crate::stack::check_lookup(name).ok()?;
        let v = match index {
            Some(i) => host.0.scope_variable(name, i),
            None => host.0.variable(name),
        };
        self.asked.borrow_mut().push((Box::from(name), v.clone()));
        v
    }

    /// Puppet's `Scope#variable_not_found` for the scope expression root
    /// `root` (as written: `::x`, `a::b`): nothing for the variables that
    /// always exist, else a warning or (strict=error) an error, worded as
    /// Puppet words them. Puppet 8 only warns while it resolves a v5
    /// hierarchy's locations.
    pub(super) fn undefined_variable(&mut self, root: &str) -> Result<()> {
        let Some((mut name, reason)) = undefined_variable_words(root) else {
            return Ok(());
        };
        if self.in_hiera3_layer() {
            // Hiera::Scope#safe_lookupvar names a variable as it was written.
            name = root.to_string();
        }
        let hiera = self.hiera();
        // Puppet's warn_once(UNDEFINED_VARIABLES_KIND, "Variable: <name>", message).
        let once = |message: String| {
            Warning::once("undefined_variables", format!("Variable: {name}"), message)
        };
        match hiera.options.strict() {
            Strict::Error
                if hiera.options.puppet >= 8 && self.config_part == ConfigPart::Locations =>
            {
                self.warn(once(format!(
                    "Interpolation failed with '{name}', but compilation continuing; {reason}"
                )));
            }
            // An ArgumentError in Puppet: no `Lookup of key` prefix.
            Strict::Error => {
                return Err(Error::new(
                    ErrorKind::Interpolation,
                    format!("Undefined variable '{name}'; {reason}"),
                ))
            }
            Strict::Warning => self.warn(once(format!("Undefined variable '{name}'; {reason}"))),
            Strict::Off => {}
        }
        Ok(())
    }

    /// Whether the hierarchy being searched is a Hiera 3 global one (its
    /// scope is Puppet's `Hiera::Scope`).
    pub(super) fn in_hiera3_layer(&self) -> bool {
        self.site.0 == Layer::Global
            && self
                .session
                .find::<GlobalConfig>(())
                .is_some_and(|(c, _)| c.version == 3)
    }

    /// Evaluates a scope expression (`facts.os.family`); undefined is nil.
    /// While a shareable resolution is recorded, notes the expression and
    /// its value (see [`ResolutionCache`]).
    pub(super) fn scope_expression(&mut self, expr: &str, subject: &str) -> Result<Value> {
        if self.recording.is_some() {
            return self.recorded_scope_expression(expr, subject);
        }
        self.evaluate_scope_expression(expr, subject)
    }

    /// [`Invocation::scope_expression`] while a resolution that may be
    /// shared is recorded: a plain expression whose every step the
    /// session's own scope has is that value, read as [`Invocation::variable`]
    /// reads it, and noted with its value. (A recording lookup has no local
    /// bindings, override values, request variables or numbered variables
    /// and is not in a Hiera 3 layer, see `Invocation::shares_resolutions`:
    /// `variable` would note the same reads and answer from the scope.)
    /// Anything else is evaluated as always, and keeps the resolution the
    /// session's own.
    fn recorded_scope_expression(&mut self, expr: &str, subject: &str) -> Result<Value> {
        let Some(value) = self.session.peek_scope(expr).cloned() else {
            if let Some((_, shareable)) = &mut self.recording {
                *shareable = false;
            }
            return self.evaluate_scope_expression(expr, subject);
        };
        let root = expr.split('.').next().unwrap_or(expr);
        let name = root.strip_prefix("::").unwrap_or(root);
        self.read(name);
        if root.len() == name.len()
            && !name.contains("::")
            && !self.unregistered_noted.get()
            && self.session.known_variables().index(name).is_none()
        {
            self.read(UNREGISTERED);
            self.unregistered_noted.set(true);
        }
        if let Some((exprs, _)) = &mut self.recording {
            exprs.push((Box::from(expr), value.clone()));
        }
        Ok(value)
    }

    fn evaluate_scope_expression(&mut self, expr: &str, subject: &str) -> Result<Value> {
        if self.explain.is_none() {
            if let Some(v) = self.plain_scope_expression(expr) {
                return Ok(v);
            }
        }
        let segments = split_key(expr).map_err(|_| {
            Error::new(
                ErrorKind::Lookup,
                format!("Syntax error in string: {subject}"),
            )
        })?;
        let root = segments[0].to_string();
        self.ex_push(|| "Global Scope".to_string());
        let mut found = self.variable(&root);
        if found.is_none() {
            // default_values_hash, by the root as written (`::x` is not `x`).
            let default = self.req.default_values_hash.get(&Key(&root)).cloned();
            // Puppet 7 asks the scope first (and complains) even when
            // default_values_hash has the variable; Puppet 8 does not.
            if default.is_none() || self.hiera().options.puppet < 8 {
                if let Err(e) = self.undefined_variable(&root) {
                    self.ex_pop();
                    return Err(e);
                }
            }
            found = default;
        }
        if let Some(v) = &found {
            self.ex_value(|| format!("Found key: \"{root}\" value: "), v);
        }
        self.ex_pop();
        let value = found.unwrap_or(Value::Nil);
        if value.is_nil() || segments.len() == 1 {
            return Ok(value);
        }
        if self.explain.is_some() {
            return Ok(self
                .explained_dig(expr, &segments[1..], value)?
                .unwrap_or(Value::Nil));
        }
        Ok(dig(expr, &segments[1..], value)?.unwrap_or(Value::Nil))
    }

    /// [`Invocation::scope_expression`] without allocating, for the usual
    /// expression: names and indexes separated by single dots, no quotes,
    /// no spaces, a defined root, every step found (`facts.os.family`).
    /// `None`: anything else (undefined, not found, an error to report),
    /// which the general code answers.
    pub(super) fn plain_scope_expression(&self, expr: &str) -> Option<Value> {
        let (root, parts) = plain_expression(expr)?;
        let value = self.variable(root)?;
        let mut step = &value;
        for part in parts {
            step = plain_step(step, part)?;
        }
        Some(step.clone())
    }
}

/// A plain scope expression's root variable and the steps after it (names
/// and indexes separated by single dots, no quotes, no spaces); `None` for
/// anything else.
fn plain_expression(expr: &str) -> Option<(&str, std::str::Split<'_, char>)> {
    if expr.is_empty()
        || expr
            .bytes()
            .any(|b| matches!(b, b'\'' | b'"') || b.is_ascii_whitespace())
    {
        return None;
    }
    let mut parts = expr.split('.');
    let root = parts.next()?;
    if root.is_empty() || crate::hiera5::key::index_segment(root).is_some() {
        return None;
    }
    Some((root, parts))
}

/// One step of a plain scope expression into `value`: a Hash's key (or
/// Integer key), an Array's index; `None` when it is not found.
fn plain_step<'v>(value: &'v Value, part: &str) -> Option<&'v Value> {
    if part.is_empty() {
        return None;
    }
    match (value, crate::hiera5::key::index_segment(part)) {
        (Value::Hash(h), None) => h.get(&Key(part)),
        (Value::Hash(h), Some(i)) => h.get(&Value::Int(i)),
        (Value::Array(a), Some(i)) if i >= 0 => a.get(i as usize),
        _ => None,
    }
}

/// A plain scope expression read once ([`Session::peek_path`] gives what
/// [`Session::peek_scope`] gives for its text, without reading the text
/// again): the top scope's name, then each step's name and index.
#[derive(Debug)]
pub(super) struct ScopePath {
    root: Box<str>,
    steps: Box<[(Box<str>, Option<i64>)]>,
}

impl ScopePath {
    /// `expr` read (`None`: [`Session::peek_scope`] gives `None` for it in
    /// every scope: not a plain expression, or an empty step).
    pub(super) fn of(expr: &str) -> Option<ScopePath> {
        let (root, parts) = plain_expression(expr)?;
        let root = Box::from(root.strip_prefix("::").unwrap_or(root));
        let steps = parts
            .map(|part| {
                (!part.is_empty())
                    .then(|| (Box::from(part), crate::hiera5::key::index_segment(part)))
            })
            .collect::<Option<_>>()?;
        Some(ScopePath { root, steps })
    }
}

impl Session {
    /// [`Session::peek_scope`] of the expression `path` was read from.
    pub(super) fn peek_path(&self, path: &ScopePath) -> Option<&Value> {
        let mut value = self.scope.get(&Key(&path.root))?;
        for (part, index) in path.steps.iter() {
            value = match (value, *index) {
                (Value::Hash(h), None) => h.get(&Key(part)),
                (Value::Hash(h), Some(i)) => h.get(&Value::Int(i)),
                (Value::Array(a), Some(i)) if i >= 0 => a.get(i as usize),
                _ => None,
            }?;
        }
        Some(value)
    }

    /// The value of a plain scope expression (names and indexes separated
    /// by single dots, as [`Invocation::plain_scope_expression`] reads
    /// them) in this session's own scope alone, every step found; noting no
    /// read. `None`: anything else.
    pub(super) fn peek_scope(&self, expr: &str) -> Option<&Value> {
        let (root, parts) = plain_expression(expr)?;
        let name = root.strip_prefix("::").unwrap_or(root);
        let mut value = self.scope.get(&Key(name))?;
        for part in parts {
            value = plain_step(value, part)?;
        }
        Some(value)
    }
}
