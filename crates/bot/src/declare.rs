//! The `settings!` macro: one declaration per setting gives its command-line flag (in
//! `cli`'s `Cli`), its `--config` key (in `FileConfig`) and its chosen value (in
//! `Chosen`, the flag over the file over the default), so a new setting cannot be added to
//! one and forgotten in another.
//!
//! Each entry is one of:
//! - `cli NAME: TYPE`: the command line only, as declared (the game, its token, the config
//!   file itself, and the settings whose file form differs and which `config` resolves by
//!   hand);
//! - `set NAME: TYPE` (optionally `= DEFAULT`): `Option<TYPE>` on both, chosen flag first;
//!   with a default the chosen value is `TYPE`, without it stays optional;
//! - `both NAME: TYPE`: `Option<TYPE>` on both, chosen by `config` itself (the mode, whose
//!   rules ask where a value came from);
//! - `path NAME => REBASE`: a file path, the file's made relative to the file's folder by
//!   `REBASE(base, path)`;
//! - `switch NAME`: a flag without a value, `true`/`false` in the file; on if either says so.
//!
//! The entries are gathered in order (a muncher), so `--help` lists the flags as declared.

/// See the module's documentation.
macro_rules! settings {
    (
        $(#[$cli_attr:meta])*
        pub struct Cli;
        $(#[$file_attr:meta])*
        struct FileConfig { $($file_extra:tt)* }
        entries { $($entries:tt)* }
    ) => {
        $crate::declare::settings!(@munch (cli file base)
            [$(#[$cli_attr])*] [$(#[$file_attr])*] [$($file_extra)*]
            [] [] [] []
            $($entries)*
        );
    };

    (@munch ($cli:ident $file:ident $base:ident) $cli_attrs:tt $file_attrs:tt $file_extra:tt
        [$($flags:tt)*] [$($keys:tt)*] [$($chosen:tt)*] [$($choose:tt)*]
        $(#[$m:meta])* cli $name:ident : $ty:ty, $($rest:tt)*
    ) => {
        $crate::declare::settings!(@munch ($cli $file $base) $cli_attrs $file_attrs $file_extra
            [$($flags)* $(#[$m])* pub $name: $ty,] [$($keys)*] [$($chosen)*] [$($choose)*]
            $($rest)*
        );
    };

    (@munch ($cli:ident $file:ident $base:ident) $cli_attrs:tt $file_attrs:tt $file_extra:tt
        [$($flags:tt)*] [$($keys:tt)*] [$($chosen:tt)*] [$($choose:tt)*]
        $(#[doc = $doc:expr])* #[arg($($arg:tt)*)]
        set $name:ident : $ty:ty $(= $default:expr)?, $($rest:tt)*
    ) => {
        $crate::declare::settings!(@munch ($cli $file $base) $cli_attrs $file_attrs $file_extra
            [$($flags)* $(#[doc = $doc])* #[arg($($arg)*)] pub $name: Option<$ty>,]
            [$($keys)* pub(crate) $name: Option<$ty>,]
            [$($chosen)* pub $name: $crate::declare::settings!(@type $ty $(, $default)?),]
            [$($choose)* $name: $crate::declare::settings!(@or
                $crate::declare::first(&$cli.$name, &$file.$name) $(, $default)?),]
            $($rest)*
        );
    };

    (@munch ($cli:ident $file:ident $base:ident) $cli_attrs:tt $file_attrs:tt $file_extra:tt
        [$($flags:tt)*] [$($keys:tt)*] [$($chosen:tt)*] [$($choose:tt)*]
        $(#[doc = $doc:expr])* #[arg($($arg:tt)*)]
        both $name:ident : $ty:ty, $($rest:tt)*
    ) => {
        $crate::declare::settings!(@munch ($cli $file $base) $cli_attrs $file_attrs $file_extra
            [$($flags)* $(#[doc = $doc])* #[arg($($arg)*)] pub $name: Option<$ty>,]
            [$($keys)* pub(crate) $name: Option<$ty>,]
            [$($chosen)*] [$($choose)*]
            $($rest)*
        );
    };

    (@munch ($cli:ident $file:ident $base:ident) $cli_attrs:tt $file_attrs:tt $file_extra:tt
        [$($flags:tt)*] [$($keys:tt)*] [$($chosen:tt)*] [$($choose:tt)*]
        $(#[doc = $doc:expr])* #[arg($($arg:tt)*)]
        path $name:ident => $rebase:path, $($rest:tt)*
    ) => {
        $crate::declare::settings!(@munch ($cli $file $base) $cli_attrs $file_attrs $file_extra
            [$($flags)* $(#[doc = $doc])* #[arg($($arg)*)]
                pub $name: Option<::std::path::PathBuf>,]
            [$($keys)* pub(crate) $name: Option<::std::path::PathBuf>,]
            [$($chosen)* pub $name: Option<::std::path::PathBuf>,]
            [$($choose)* $name: $cli.$name.clone()
                .or_else(|| $file.$name.clone().map(|p| $rebase($base, p))),]
            $($rest)*
        );
    };

    (@munch ($cli:ident $file:ident $base:ident) $cli_attrs:tt $file_attrs:tt $file_extra:tt
        [$($flags:tt)*] [$($keys:tt)*] [$($chosen:tt)*] [$($choose:tt)*]
        $(#[doc = $doc:expr])* #[arg($($arg:tt)*)]
        switch $name:ident, $($rest:tt)*
    ) => {
        $crate::declare::settings!(@munch ($cli $file $base) $cli_attrs $file_attrs $file_extra
            [$($flags)* $(#[doc = $doc])* #[arg($($arg)*)] pub $name: bool,]
            [$($keys)* pub(crate) $name: Option<bool>,]
            [$($chosen)* pub $name: bool,]
            [$($choose)* $name: $cli.$name || $file.$name.unwrap_or(false),]
            $($rest)*
        );
    };

    (@munch ($cli:ident $file:ident $base:ident)
        [$($cli_attr:tt)*] [$($file_attr:tt)*] [$($file_extra:tt)*]
        [$($flags:tt)*] [$($keys:tt)*] [$($chosen:tt)*] [$($choose:tt)*]
    ) => {
        $($cli_attr)*
        pub struct Cli { $($flags)* }

        $($file_attr)*
        pub(crate) struct FileConfig { $($keys)* $($file_extra)* }

        /// Every setting declared with its file key, chosen: the command line over the file
        /// over the default.
        #[derive(Debug)]
        pub(crate) struct Chosen { $($chosen)* }

        impl Chosen {
            /// The command line over `file`, whose relative paths are relative to `base`.
            pub(crate) fn of(
                $cli: &Cli,
                $file: &FileConfig,
                $base: &::std::path::Path,
            ) -> Chosen {
                Chosen { $($choose)* }
            }
        }
    };

    (@type $ty:ty) => { Option<$ty> };
    (@type $ty:ty, $default:expr) => { $ty };
    (@or $value:expr) => { $value };
    (@or $value:expr, $default:expr) => { $value.unwrap_or_else(|| $default) };
}

pub(crate) use settings;

/// The flag's value if given, else the file's.
pub(crate) fn first<T: Clone>(flag: &Option<T>, file: &Option<T>) -> Option<T> {
    flag.clone().or_else(|| file.clone())
}
