//! The invocation as interpolation's [`Resolver`]: variables and the
//! `lookup`/`hiera`/`alias`/`scope` functions of `%{...}`.

use super::*;
use crate::error::Result;
use crate::hiera5::interpolate::Resolver;
use crate::limits::{self};
use crate::value::Value;
use std::sync::Arc;

impl Resolver for Invocation<'_> {
    fn enter(&mut self, subject: &str) {
        self.ex_push(|| format!("Interpolation on \"{subject}\""));
    }

    fn leave(&mut self) {
        self.ex_pop();
    }

    fn scope(&mut self, expr: &str, subject: &str) -> Result<Value> {
        self.scope_expression(expr, subject)
    }

    fn lookup(&mut self, key: &str) -> Result<Value> {
        let limits = self.limits();
        limits.check_lookup_depth(self.depth, format_args!("the lookup of '{key}'"))?;
        limits.check_nested_lookups(self.nested, format_args!("the lookup of '{key}'"))?;
        crate::stack::check_lookup(key)?;
        self.nested += 1;
        self.depth += 1;
        let names = [key.to_string()];
        // A Hiera 3 global layer confines its lookups to the global layer
        // unless the environment has a data provider (Puppet's
        // GlobalDataProvider).
        let global_only = self.global_only;
        if !global_only && self.in_hiera3_layer() {
            self.global_only = self
                .layer_config(Layer::Environment, None)?
                .is_none_or(|c| c.version < 5);
        }
        let r = self.lookup_names(&names, None, Some(&Value::from("")));
        self.global_only = global_only;
        self.depth -= 1;
        let v = r?.unwrap_or_default();
        if matches!(v, Value::Array(_) | Value::Hash(_)) {
            let left = limits.nested_values.saturating_sub(self.nested_values);
            match limits::expanded_size(&v, left) {
                Some(n) => self.nested_values += n,
                None => {
                    return Err(limits::exceeded(
                        "nested_values",
                        limits.nested_values,
                        format_args!("the nested lookups of one lookup returned more than {} values, at the lookup of '{key}'", limits.nested_values),
                    ))
                }
            }
        }
        Ok(v)
    }

    fn produced(&mut self, bytes: usize, whole: bool) -> Result<()> {
        let limits = self.limits();
        limits.check_string_bytes(bytes)?;
        if whole {
            self.interpolated = self.interpolated.saturating_add(bytes);
            if self.interpolated > limits.interpolated_bytes {
                return Err(limits::exceeded(
                    "interpolated_bytes",
                    limits.interpolated_bytes,
                    format_args!(
                        "interpolation produced more than {} bytes for one lookup",
                        limits.interpolated_bytes
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check(
        &mut self,
        name: String,
        f: &mut dyn FnMut(&mut Self) -> Result<Value>,
    ) -> Result<Value> {
        if self.stack.iter().any(|n| **n == *name) {
            return Err(self.recursion_error());
        }
        // Interpolations nest without lookups too (a scope variable whose
        // value names the next one): bounded like nested lookups.
        self.limits()
            .check_interpolation_depth(self.checks, format_args!("'{name}'"))?;
        crate::stack::check_lookup(&name)?;
        self.stack.push(Arc::from(name));
        self.checks += 1;
        let r = f(self);
        self.checks -= 1;
        self.stack.pop();
        r
    }
}
