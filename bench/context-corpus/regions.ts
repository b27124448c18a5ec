// Cases shaped after real fixes where the file to change was found but shown by the wrong regions, or
// not shown at all: a 3,000-line module whose fix is in the class the failing test names by another
// spelling (`help_option` → `HelpOption`) and the method returning it; a 1,875-line Go file whose fix
// is deep in a long function named like the failing data file; a data-driven suite whose runner loads
// the component by a path pattern; and a passing baseline where only the directive names the code.
import { goFuncs, pyHelpers, pyMethods } from './code.js';
import { prismFiles } from './pinpoint.js';
import { noise, type ContextCase } from './shapes.js';

const PY_NOISE = noise('python', 'legacy', 24);
const GO_NOISE = noise('go', 'internal/legacy', 24);
const JS_NOISE = noise('javascript', 'examples', 24);

// ---------------------------------------------------------------------------------------------------
// Python: a command-line library's 3,000-line core.py. The failing test calls click.help_option; the
// fix is in HelpOption (core.py) and in Command.get_help_option, which returns it.

const CLICK_HEAD = `from __future__ import annotations

import collections.abc as cabc
import enum
import errno
import inspect
import os
import sys
import typing as t
from collections import abc
from collections import Counter
from contextlib import AbstractContextManager
from contextlib import contextmanager
from contextlib import ExitStack
from functools import update_wrapper
from gettext import gettext as _
from gettext import ngettext
from itertools import repeat
from types import TracebackType

from . import types
from .exceptions import Abort
from .exceptions import BadParameter
from .exceptions import ClickException
from .exceptions import Exit
from .exceptions import MissingParameter
from .exceptions import NoArgsIsHelpError
from .exceptions import UsageError
from .formatting import HelpFormatter
from .formatting import join_options
from .globals import pop_context
from .globals import push_context
from .parser import _flag_needs_value
from .parser import _OptionParser
from .parser import _split_opt
from .termui import confirm
from .termui import prompt
from .termui import style
from .utils import _detect_program_name
from .utils import _expand_args
from .utils import echo
from .utils import make_default_short_help
from .utils import make_str
from .utils import PacifyFlushWrapper

if t.TYPE_CHECKING:
    from .shell_completion import CompletionItem

F = t.TypeVar("F", bound="t.Callable[..., t.Any]")
V = t.TypeVar("V")


def _complete_visible_commands(
    ctx: Context, incomplete: str
) -> cabc.Iterator[tuple[str, Command]]:
    """List all the subcommands of a group that start with the
    incomplete value and aren't hidden.

    :param ctx: Invocation context for the group.
    :param incomplete: Value being completed. May be empty.
    """
    multi = t.cast(Group, ctx.command)

    for name in multi.list_commands(ctx):
        if name.startswith(incomplete):
            command = multi.get_command(ctx, name)

            if command is not None and not command.hidden:
                yield name, command


def _check_nested_chain(
    base_command: Group, cmd_name: str, cmd: Command, register: bool = False
) -> None:
    if not base_command.chain or not isinstance(cmd, Group):
        return

    if register:
        message = (
            f"It is not possible to add the group {cmd_name!r} to another"
            f" group {base_command.name!r} that is in chain mode."
        )
    else:
        message = (
            f"Found the group {cmd_name!r} as subcommand to another group "
            f" {base_command.name!r} that is in chain mode. This is not supported."
        )

    raise RuntimeError(message)


def batch(iterable: cabc.Iterable[V], batch_size: int) -> list[tuple[V, ...]]:
    return list(zip(*repeat(iter(iterable), batch_size)))


@contextmanager
def augment_usage_errors(
    ctx: Context, param: Parameter | None = None
) -> cabc.Iterator[None]:
    """Context manager that attaches extra information to exceptions."""
    try:
        yield
    except BadParameter as e:
        if e.ctx is None:
            e.ctx = ctx
        if param is not None and e.param is None:
            e.param = param
        raise
    except UsageError as e:
        if e.ctx is None:
            e.ctx = ctx
        raise


def iter_params_for_processing(
    invocation_order: cabc.Sequence[Parameter],
    declaration_order: cabc.Sequence[Parameter],
) -> list[Parameter]:
    """Returns all declared parameters in the order they should be processed.

    The declared parameters are re-shuffled depending on the order in which
    they were invoked, as well as the eagerness of each parameters.

    The invocation order takes precedence over the declaration order. I.e. the
    order in which the user provided them to the CLI is respected.

    This behavior and its effect on callback evaluation is detailed at:
    https://click.palletsprojects.com/en/stable/advanced/#callback-evaluation-order
    """

    def sort_key(item: Parameter) -> tuple[bool, float]:
        try:
            idx: float = invocation_order.index(item)
        except ValueError:
            idx = float("inf")

        return not item.is_eager, idx

    return sorted(declaration_order, key=sort_key)


class ParameterSource(enum.Enum):
    """This is an :class:\`~enum.Enum\` that indicates the source of a
    parameter's value.
    """

    COMMANDLINE = enum.auto()
    ENVIRONMENT = enum.auto()
    DEFAULT = enum.auto()
    DEFAULT_MAP = enum.auto()
    PROMPT = enum.auto()
`;

const CLICK_CONTEXT = `

class Context:
    """The context is a special internal object that holds state relevant
    for the script execution at every single level.  It's normally invisible
    to commands unless they opt-in to getting access to it.

    :param command: the command class for this context.
    :param parent: the parent context.
    :param info_name: the info name for this invocation.
    :param obj: an arbitrary object of user data.
    :param auto_envvar_prefix: the prefix to use for automatic environment
                               variables.
    :param help_option_names: optionally a list of strings that define how
                              the default help parameter is named.  The
                              default is \`\`['--help']\`\`.
    """

    #: The formatter class to create with :meth:\`make_formatter\`.
    formatter_class: type[HelpFormatter] = HelpFormatter

    def __init__(
        self,
        command: Command,
        parent: Context | None = None,
        info_name: str | None = None,
        obj: t.Any | None = None,
        auto_envvar_prefix: str | None = None,
        default_map: cabc.MutableMapping[str, t.Any] | None = None,
        terminal_width: int | None = None,
        max_content_width: int | None = None,
        resilient_parsing: bool = False,
        allow_extra_args: bool | None = None,
        allow_interspersed_args: bool | None = None,
        ignore_unknown_options: bool | None = None,
        help_option_names: list[str] | None = None,
        token_normalize_func: t.Callable[[str], str] | None = None,
        color: bool | None = None,
        show_default: bool | None = None,
    ) -> None:
        #: the parent context or \`None\` if none exists.
        self.parent = parent
        #: the :class:\`Command\` for this context.
        self.command = command
        #: the descriptive information name
        self.info_name = info_name
        #: Map of parameter names to their parsed values.
        self.params: dict[str, t.Any] = {}
        #: the leftover arguments.
        self.args: list[str] = []
        self.protected_args: list[str] = []
        self._opt_prefixes: set[str] = set(parent._opt_prefixes) if parent else set()

        if obj is None and parent is not None:
            obj = parent.obj

        #: the user object stored.
        self.obj: t.Any = obj
        self._meta: dict[str, t.Any] = getattr(parent, "meta", {})

        if (
            default_map is None
            and info_name is not None
            and parent is not None
            and parent.default_map is not None
        ):
            default_map = parent.default_map.get(info_name)

        self.default_map: cabc.MutableMapping[str, t.Any] | None = default_map
        self.invoked_subcommand: str | None = None

        if terminal_width is None and parent is not None:
            terminal_width = parent.terminal_width

        #: The width of the terminal (None is autodetection).
        self.terminal_width: int | None = terminal_width

        if max_content_width is None and parent is not None:
            max_content_width = parent.max_content_width

        self.max_content_width: int | None = max_content_width

        if allow_extra_args is None:
            allow_extra_args = command.allow_extra_args

        self.allow_extra_args = allow_extra_args

        if allow_interspersed_args is None:
            allow_interspersed_args = command.allow_interspersed_args

        self.allow_interspersed_args: bool = allow_interspersed_args

        if ignore_unknown_options is None:
            ignore_unknown_options = command.ignore_unknown_options

        self.ignore_unknown_options: bool = ignore_unknown_options

        if help_option_names is None:
            if parent is not None:
                help_option_names = parent.help_option_names
            else:
                help_option_names = ["--help"]

        #: The names for the help options.
        self.help_option_names: list[str] = help_option_names

        if token_normalize_func is None and parent is not None:
            token_normalize_func = parent.token_normalize_func

        self.token_normalize_func: t.Callable[[str], str] | None = token_normalize_func
        self.resilient_parsing: bool = resilient_parsing

        if auto_envvar_prefix is None:
            if (
                parent is not None
                and parent.auto_envvar_prefix is not None
                and self.info_name is not None
            ):
                auto_envvar_prefix = (
                    f"{parent.auto_envvar_prefix}_{self.info_name.upper()}"
                )
        else:
            auto_envvar_prefix = auto_envvar_prefix.upper()

        if auto_envvar_prefix is not None:
            auto_envvar_prefix = auto_envvar_prefix.replace("-", "_")

        self.auto_envvar_prefix: str | None = auto_envvar_prefix

        if color is None and parent is not None:
            color = parent.color

        self.color: bool | None = color

        if show_default is None and parent is not None:
            show_default = parent.show_default

        self.show_default: bool | None = show_default
        self._close_callbacks: list[t.Callable[[], t.Any]] = []
        self._depth = 0
        self._parameter_source: dict[str, ParameterSource] = {}
        self._exit_stack = ExitStack()

    def get_usage(self) -> str:
        """Helper method to get formatted usage string for the current
        context and command.
        """
        return self.command.get_usage(self)

    def get_help(self) -> str:
        """Helper method to get formatted help page for the current
        context and command.
        """
        return self.command.get_help(self)

    def exit(self, code: int = 0) -> t.NoReturn:
        """Exits the application with a given exit code."""
        self.close()
        raise Exit(code)

    def fail(self, message: str) -> t.NoReturn:
        """Aborts the execution of the program with a specific error
        message.
        """
        raise UsageError(message, self)

    def invoke(
        self, callback: Command | t.Callable[..., V], /, *args: t.Any, **kwargs: t.Any
    ) -> t.Any | V:
        """Invokes a command callback in exactly the way it expects.  There
        are two ways to invoke this method:

        1.  the first argument can be a callback and all other arguments and
            keyword arguments are forwarded directly to the function.
        2.  the first argument is a click command object.  In that case all
            arguments are forwarded as well but proper click parameters
            (options and click arguments) must be keyword arguments and Click
            will fill in defaults.
        """
        if isinstance(callback, Command):
            other_cmd = callback

            if other_cmd.callback is None:
                raise TypeError(
                    "The given command does not have a callback that can be invoked."
                )
            else:
                callback = t.cast("t.Callable[..., V]", other_cmd.callback)

            ctx = self._make_sub_context(other_cmd)

            for param in other_cmd.params:
                if param.name not in kwargs and param.expose_value:
                    kwargs[param.name] = param.type_cast_value(  # type: ignore
                        ctx, param.get_default(ctx)
                    )

            # Track all kwargs as params, so that forward() will pass them on in subsequent calls.
            ctx.params.update(kwargs)
        else:
            ctx = self

        with augment_usage_errors(self):
            with ctx:
                return callback(*args, **kwargs)

    def forward(self, cmd: Command, /, *args: t.Any, **kwargs: t.Any) -> t.Any:
        """Similar to :meth:\`invoke\` but fills in default keyword
        arguments from the current context if the other command expects
        it.
        """
        # Can only forward to other commands, not direct callbacks.
        if not isinstance(cmd, Command):
            raise TypeError("Callback is not a command.")

        for param in self.params:
            if param not in kwargs:
                kwargs[param] = self.params[param]

        return self.invoke(cmd, *args, **kwargs)

    def _make_sub_context(self, command: Command) -> Context:
        """Create a new context of the same type as this context, but
        for a new command.
        """
        return type(self)(command, info_name=command.name, parent=self)

    def close(self) -> None:
        """Invoke all close callbacks registered."""
        self._exit_stack.close()
        self._exit_stack = ExitStack()

${pyMethods(45, 7000)}`;

const CLICK_COMMAND = `

class Command:
    """Commands are the basic building block of command line interfaces in
    Click.  A basic command handles command line parsing and might dispatch
    more parsing to commands nested below it.

    :param name: the name of the command to use unless a group overrides it.
    :param context_settings: an optional dictionary with defaults that are
                             passed to the context object.
    :param callback: the callback to invoke.  This is optional.
    :param params: the parameters to register with this command.
    :param add_help_option: by default each command registers a \`\`--help\`\`
                            option.  This can be disabled by this parameter.
    """

    #: The context class to create with :meth:\`make_context\`.
    context_class: type[Context] = Context

    #: the default for the :attr:\`Context.allow_extra_args\` flag.
    allow_extra_args = False

    #: the default for the :attr:\`Context.allow_interspersed_args\` flag.
    allow_interspersed_args = True

    #: the default for the :attr:\`Context.ignore_unknown_options\` flag.
    ignore_unknown_options = False

    def __init__(
        self,
        name: str | None,
        context_settings: cabc.MutableMapping[str, t.Any] | None = None,
        callback: t.Callable[..., t.Any] | None = None,
        params: list[Parameter] | None = None,
        help: str | None = None,
        epilog: str | None = None,
        short_help: str | None = None,
        options_metavar: str | None = "[OPTIONS]",
        add_help_option: bool = True,
        no_args_is_help: bool = False,
        hidden: bool = False,
        deprecated: bool | str = False,
    ) -> None:
        #: the name the command thinks it has.
        self.name = name

        if context_settings is None:
            context_settings = {}

        #: an optional dictionary with defaults passed to the context.
        self.context_settings: cabc.MutableMapping[str, t.Any] = context_settings

        #: the callback to execute when the command fires.
        self.callback = callback
        #: the list of parameters for this command in the order they
        #: should show up in the help page and execute.
        self.params: list[Parameter] = params or []
        self.help = help
        self.epilog = epilog
        self.options_metavar = options_metavar
        self.short_help = short_help
        self.add_help_option = add_help_option
        self.no_args_is_help = no_args_is_help
        self.hidden = hidden
        self.deprecated = deprecated

    def get_usage(self, ctx: Context) -> str:
        """Formats the usage line into a string and returns it."""
        formatter = ctx.make_formatter()
        self.format_usage(ctx, formatter)
        return formatter.getvalue().rstrip("\\n")

    def get_params(self, ctx: Context) -> list[Parameter]:
        params = self.params
        help_option = self.get_help_option(ctx)

        if help_option is not None:
            params = [*params, help_option]

        return params

    def get_help_option_names(self, ctx: Context) -> list[str]:
        """Returns the names for the help option."""
        all_names = set(ctx.help_option_names)
        for param in self.params:
            all_names.difference_update(param.opts)
            all_names.difference_update(param.secondary_opts)
        return list(all_names)

    def get_help_option(self, ctx: Context) -> Option | None:
        """Returns the help option object.

        Skipped if :attr:\`add_help_option\` is \`\`False\`\`.
        """
        help_option_names = self.get_help_option_names(ctx)

        if not help_option_names or not self.add_help_option:
            return None

        return HelpOption(help_option_names)

    def make_parser(self, ctx: Context) -> _OptionParser:
        """Creates the underlying option parser for this command."""
        parser = _OptionParser(ctx)
        for param in self.get_params(ctx):
            param.add_to_parser(parser, ctx)
        return parser

    def get_help(self, ctx: Context) -> str:
        """Formats the help into a string and returns it."""
        formatter = ctx.make_formatter()
        self.format_help(ctx, formatter)
        return formatter.getvalue().rstrip("\\n")

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Context | None = None,
        **extra: t.Any,
    ) -> Context:
        """This function when given an info name and arguments will kick
        off the parsing and create a new :class:\`Context\`.  It does not
        invoke the actual command callback though.
        """
        for key, value in self.context_settings.items():
            if key not in extra:
                extra[key] = value

        ctx = self.context_class(self, info_name=info_name, parent=parent, **extra)

        with ctx.scope(cleanup=False):
            self.parse_args(ctx, args)
        return ctx

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            raise NoArgsIsHelpError(ctx)

        parser = self.make_parser(ctx)
        opts, args, param_order = parser.parse_args(args=args)

        for param in iter_params_for_processing(param_order, self.get_params(ctx)):
            value, args = param.handle_parse_result(ctx, opts, args)

        if args and not ctx.allow_extra_args and not ctx.resilient_parsing:
            ctx.fail(
                ngettext(
                    "Got unexpected extra argument ({args})",
                    "Got unexpected extra arguments ({args})",
                    len(args),
                ).format(args=" ".join(map(str, args)))
            )

        ctx.args = args
        ctx._opt_prefixes.update(parser._opt_prefixes)
        return args

    def invoke(self, ctx: Context) -> t.Any:
        """Given a context, this invokes the attached callback (if it exists)
        in the right way.
        """
        if self.deprecated:
            echo(style(_("DeprecationWarning: The command {name!r} is deprecated.").format(name=self.name), fg="red"), err=True)

        if self.callback is not None:
            return ctx.invoke(self.callback, **ctx.params)

    def main(
        self,
        args: cabc.Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: t.Any,
    ) -> t.Any:
        """This is the way to invoke a script with all the bells and
        whistles as a command line application.  This will always terminate
        the application after a call.  If this is not wanted, \`\`SystemExit\`\`
        needs to be caught.
        """
        if args is None:
            args = sys.argv[1:]

            if os.name == "nt" and windows_expand_args:
                args = _expand_args(args)
        else:
            args = list(args)

        if prog_name is None:
            prog_name = _detect_program_name()

        try:
            try:
                with self.make_context(prog_name, args, **extra) as ctx:
                    rv = self.invoke(ctx)
                    if not standalone_mode:
                        return rv
                    ctx.exit()
            except (EOFError, KeyboardInterrupt) as e:
                echo(file=sys.stderr)
                raise Abort() from e
            except ClickException as e:
                if not standalone_mode:
                    raise
                e.show()
                sys.exit(e.exit_code)
            except OSError as e:
                if e.errno == errno.EPIPE:
                    sys.stdout = t.cast(t.TextIO, PacifyFlushWrapper(sys.stdout))
                    sys.stderr = t.cast(t.TextIO, PacifyFlushWrapper(sys.stderr))
                    sys.exit(1)
                else:
                    raise
        except Exit as e:
            if standalone_mode:
                sys.exit(e.exit_code)
            else:
                return e.exit_code
        except Abort:
            if not standalone_mode:
                raise
            echo(_("Aborted!"), file=sys.stderr)
            sys.exit(1)

    def __call__(self, *args: t.Any, **kwargs: t.Any) -> t.Any:
        """Alias for :meth:\`main\`."""
        return self.main(*args, **kwargs)

${pyMethods(40, 7100)}

class Group(Command):
    """A group is a command that nests other commands (or more groups)."""

    allow_extra_args = True
    allow_interspersed_args = False

    def __init__(
        self,
        name: str | None = None,
        commands: cabc.MutableMapping[str, Command] | cabc.Sequence[Command] | None = None,
        invoke_without_command: bool = False,
        no_args_is_help: bool | None = None,
        subcommand_metavar: str | None = None,
        chain: bool = False,
        result_callback: t.Callable[..., t.Any] | None = None,
        **kwargs: t.Any,
    ) -> None:
        super().__init__(name, **kwargs)
        self.commands: cabc.MutableMapping[str, Command] = dict(commands or {})
        self.no_args_is_help = no_args_is_help or not invoke_without_command
        self.invoke_without_command = invoke_without_command
        self.subcommand_metavar = subcommand_metavar
        self.chain = chain
        self._result_callback = result_callback

    def command(self, *args: t.Any, **kwargs: t.Any) -> t.Callable[[t.Callable[..., t.Any]], Command] | Command:
        """A shortcut decorator for declaring and attaching a command to
        the group.
        """
        from .decorators import command

        func: t.Callable[..., t.Any] | None = None

        if args and callable(args[0]):
            assert len(args) == 1 and not kwargs, "Use 'command(**kwargs)(callable)' to provide arguments."
            (func,) = args
            args = ()

        def decorator(f: t.Callable[..., t.Any]) -> Command:
            cmd: Command = command(*args, **kwargs)(f)
            self.add_command(cmd)
            return cmd

        if func is not None:
            return decorator(func)

        return decorator

    def invoke(self, ctx: Context) -> t.Any:
        def _process_result(value: t.Any) -> t.Any:
            if self._result_callback is not None:
                value = ctx.invoke(self._result_callback, value, **ctx.params)
            return value

        if not ctx.protected_args:
            if self.invoke_without_command:
                with ctx:
                    rv = super().invoke(ctx)
                    return _process_result([] if self.chain else rv)
            ctx.fail(_("Missing command."))

        args = [*ctx.protected_args, *ctx.args]
        ctx.args = []
        ctx.protected_args = []

        if not self.chain:
            with ctx:
                cmd_name, cmd, args = self.resolve_command(ctx, args)
                assert cmd is not None
                ctx.invoked_subcommand = cmd_name
                super().invoke(ctx)
                sub_ctx = cmd.make_context(cmd_name, args, parent=ctx)
                with sub_ctx:
                    return _process_result(sub_ctx.command.invoke(sub_ctx))

        with ctx:
            ctx.invoked_subcommand = "*" if args else None
            super().invoke(ctx)
            contexts = []
            while args:
                cmd_name, cmd, args = self.resolve_command(ctx, args)
                assert cmd is not None
                sub_ctx = cmd.make_context(cmd_name, args, parent=ctx, allow_extra_args=True, allow_interspersed_args=False)
                contexts.append(sub_ctx)
                args, sub_ctx.args = sub_ctx.args, []

            rv = []
            for sub_ctx in contexts:
                with sub_ctx:
                    rv.append(sub_ctx.command.invoke(sub_ctx))
            return _process_result(rv)

${pyMethods(35, 7150)}`;

const CLICK_PARAMS = `

class Parameter:
    r"""A parameter to a command comes in two versions: they are either
    :class:\`Option\`\\s or :class:\`Argument\`\\s.
    """

    param_type_name = "parameter"

    def __init__(
        self,
        param_decls: cabc.Sequence[str] | None = None,
        type: types.ParamType | t.Any | None = None,
        required: bool = False,
        default: t.Any | t.Callable[[], t.Any] | None = None,
        callback: t.Callable[[Context, Parameter, t.Any], t.Any] | None = None,
        nargs: int | None = None,
        multiple: bool = False,
        metavar: str | None = None,
        expose_value: bool = True,
        is_eager: bool = False,
        envvar: str | cabc.Sequence[str] | None = None,
    ) -> None:
        self.name, self.opts, self.secondary_opts = self._parse_decls(param_decls or (), expose_value)
        self.type: types.ParamType = types.convert_type(type, default)
        self.required = required
        self.callback = callback
        self.nargs = nargs
        self.multiple = multiple
        self.expose_value = expose_value
        self.default = default
        self.is_eager = is_eager
        self.metavar = metavar
        self.envvar = envvar

    def handle_parse_result(self, ctx: Context, opts: cabc.Mapping[str, t.Any], args: list[str]) -> tuple[t.Any, list[str]]:
        with augment_usage_errors(ctx, param=self):
            value, source = self.consume_value(ctx, opts)
            ctx.set_parameter_source(self.name, source)  # type: ignore
            try:
                value = self.process_value(ctx, value)
            except Exception:
                if not ctx.resilient_parsing:
                    raise
                value = None

        if self.expose_value:
            ctx.params[self.name] = value  # type: ignore

        return value, args

${pyMethods(45, 7200)}

class Option(Parameter):
    """Options are usually optional values on the command line and
    have some extra features that arguments don't have.
    """

    param_type_name = "option"

    def __init__(
        self,
        param_decls: cabc.Sequence[str] | None = None,
        show_default: bool | str | None = None,
        prompt: bool | str = False,
        confirmation_prompt: bool | str = False,
        prompt_required: bool = True,
        hide_input: bool = False,
        is_flag: bool | None = None,
        flag_value: t.Any | None = None,
        multiple: bool = False,
        count: bool = False,
        allow_from_autoenv: bool = True,
        type: types.ParamType | t.Any | None = None,
        help: str | None = None,
        hidden: bool = False,
        show_choices: bool = True,
        show_envvar: bool = False,
        **attrs: t.Any,
    ) -> None:
        if help:
            help = inspect.cleandoc(help)

        super().__init__(param_decls, type=type, multiple=multiple, **attrs)
        self.prompt = prompt
        self.confirmation_prompt = confirmation_prompt
        self.prompt_required = prompt_required
        self.hide_input = hide_input
        self.hidden = hidden
        self.is_flag: bool = bool(is_flag)
        self.flag_value: t.Any = flag_value
        self.count = count
        self.allow_from_autoenv = allow_from_autoenv
        self.help = help
        self.show_default = show_default
        self.show_choices = show_choices
        self.show_envvar = show_envvar

${pyMethods(40, 7250)}

class HelpOption(Option):
    """The \`\`--help\`\` option: shows the help page and exits.

    .. versionadded:: 8.2
    """

    def __init__(self, param_decls: cabc.Sequence[str] | None = None, **kwargs: t.Any) -> None:
        if not param_decls:
            param_decls = ("--help",)

        kwargs.setdefault("is_flag", True)
        kwargs.setdefault("expose_value", False)
        kwargs.setdefault("is_eager", True)
        kwargs.setdefault("help", _("Show this message and exit."))
        kwargs.setdefault("callback", self.show_help)

        super().__init__(param_decls, **kwargs)

    @staticmethod
    def show_help(ctx: Context, param: Parameter, value: bool) -> None:
        """Callback that print the help page on \`\`<stdout>\`\` and exits."""
        if not value or ctx.resilient_parsing:
            return

        echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


class Argument(Parameter):
    """Arguments are positional parameters to a command."""

    param_type_name = "argument"

    def __init__(self, param_decls: cabc.Sequence[str], required: bool | None = None, **attrs: t.Any) -> None:
        super().__init__(param_decls, required=bool(required), **attrs)

${pyMethods(30, 7300)}`;

const CLICK_DECORATORS = `from __future__ import annotations

import inspect
import typing as t
from functools import update_wrapper
from gettext import gettext as _

from .core import Argument
from .core import Command
from .core import Context
from .core import Group
from .core import HelpOption
from .core import Option
from .core import Parameter
from .globals import get_current_context
from .utils import echo

FC = t.TypeVar("FC", bound="t.Callable[..., t.Any] | Command")


def pass_context(f):
    """Marks a callback as wanting to receive the current context
    object as first argument.
    """

    def new_func(*args, **kwargs):
        return f(get_current_context(), *args, **kwargs)

    return update_wrapper(new_func, f)


def command(name=None, cls=None, **attrs):
    """Creates a new :class:\`Command\` and uses the decorated function as
    callback.
    """
    func = None

    if callable(name):
        func = name
        name = None

    if cls is None:
        cls = Command

    def decorator(f):
        params = getattr(f, "__click_params__", [])
        params.reverse()
        cmd = cls(name=name or f.__name__.lower().replace("_", "-"), callback=f, params=params, **attrs)
        cmd.__doc__ = f.__doc__
        return cmd

    if func is not None:
        return decorator(func)

    return decorator


def group(name=None, cls=None, **attrs):
    """Creates a new :class:\`Group\` with a function as callback."""
    if cls is None:
        cls = Group
    return command(name, cls, **attrs)


def _param_memo(f, param):
    if isinstance(f, Command):
        f.params.append(param)
    else:
        if not hasattr(f, "__click_params__"):
            f.__click_params__ = []
        f.__click_params__.append(param)


def argument(*param_decls, cls=None, **attrs):
    """Attaches an argument to the command."""
    if cls is None:
        cls = Argument

    def decorator(f):
        _param_memo(f, cls(param_decls, **attrs))
        return f

    return decorator


def option(*param_decls, cls=None, **attrs):
    """Attaches an option to the command."""
    if cls is None:
        cls = Option

    def decorator(f):
        _param_memo(f, cls(param_decls, **attrs))
        return f

    return decorator


def version_option(version=None, *param_decls, **kwargs):
    """Add a \`\`--version\`\` option which immediately prints the version
    number and exits the program.
    """
    if not param_decls:
        param_decls = ("--version",)

    def callback(ctx, param, value):
        if not value or ctx.resilient_parsing:
            return
        echo(f"{ctx.info_name}, version {version}", color=ctx.color)
        ctx.exit()

    kwargs.setdefault("is_flag", True)
    kwargs.setdefault("expose_value", False)
    kwargs.setdefault("is_eager", True)
    kwargs.setdefault("help", _("Show the version and exit."))
    kwargs["callback"] = callback
    return option(*param_decls, **kwargs)


def help_option(*param_decls: str, **kwargs: t.Any) -> t.Callable[[FC], FC]:
    """Pre-configured \`\`--help\`\` option which immediately prints the help page
    and exits the program.

    :param param_decls: One or more option names. Defaults to the single
        value \`\`"--help"\`\`.
    :param kwargs: Extra arguments are passed to :func:\`option\`.
    """
    return option(*param_decls, cls=HelpOption, **kwargs)
`;

const CLICK_TEST = `import os
import re

import pytest

import click
from click import Option


def test_prefixes(runner):
    @click.command()
    @click.option("++foo", is_flag=True, help="das foo")
    @click.option("--bar", is_flag=True, help="das bar")
    def cli(foo, bar):
        click.echo(f"foo={foo} bar={bar}")

    result = runner.invoke(cli, ["++foo", "--bar"])
    assert not result.exception
    assert result.output == "foo=True bar=True\\n"


def test_invalid_option(runner):
    with pytest.raises(TypeError, match="name was passed") as exc_info:
        click.Option(["foo"])

    message = str(exc_info.value)
    assert "name was passed (foo)" in message


@pytest.mark.parametrize("deprecated", [True, "USE B INSTEAD"])
def test_deprecated_usage(runner, deprecated):
    @click.command()
    @click.option("--foo", default="bar", deprecated=deprecated)
    def cmd(foo):
        click.echo(foo)

    result = runner.invoke(cmd, ["--help"])
    assert "(DEPRECATED" in result.output


def test_eager_callbacks_keep_invocation_order(runner):
    calls = []

    def record(ctx, param, value):
        if value:
            calls.append(param.name)

    @click.command()
    @click.option("--version", is_flag=True, is_eager=True, expose_value=False, callback=record)
    @click.help_option("--assist", callback=record)
    def cli():
        pass

    runner.invoke(cli, ["--version", "--assist"])
    assert calls == ["version", "assist"]


def test_multiple_required(runner):
    @click.command()
    @click.option("-m", "--message", multiple=True, required=True)
    def cli(message):
        click.echo("\\n".join(message))

    result = runner.invoke(cli, ["-m", "foo", "-mbar"])
    assert not result.exception
    assert result.output == "foo\\nbar\\n"
`;

const CLICK_CHANGES = `.. currentmodule:: click

Version 8.2.0
-------------

Unreleased

-   Drop support for Python 3.7. :pr:\`2588\`
-   Use modern packaging metadata with \`\`pyproject.toml\`\` instead of \`\`setup.cfg\`\`. :pr:\`2438\`

Version 8.1.8
-------------

Released 2024-12-19

${Array.from({ length: 300 }, (_, k) => `-   Fix an older issue. :issue:\`${2000 + k}\`\n`).join('')}`;

function clickFiles(): Record<string, string> {
  return {
    ...PY_NOISE,
    'pyproject.toml': '[project]\nname = "click"\nversion = "8.2.0.dev"\n',
    'CHANGES.rst': CLICK_CHANGES,
    'src/click/__init__.py': `"""Click is a simple Python module inspired by the stdlib optparse to make
writing command line scripts fun.
"""

from __future__ import annotations

from .core import Argument as Argument
from .core import Command as Command
from .core import Context as Context
from .core import Group as Group
from .core import HelpOption as HelpOption
from .core import Option as Option
from .core import Parameter as Parameter
from .decorators import argument as argument
from .decorators import command as command
from .decorators import group as group
from .decorators import help_option as help_option
from .decorators import option as option
from .decorators import pass_context as pass_context
from .decorators import version_option as version_option
from .utils import echo as echo
`,
    'src/click/core.py': `${CLICK_HEAD}${CLICK_CONTEXT}${CLICK_COMMAND}${CLICK_PARAMS}\n${pyHelpers(8, 7400)}`,
    'src/click/decorators.py': CLICK_DECORATORS,
    'src/click/utils.py': `import os\nimport sys\n\n\ndef echo(message=None, file=None, nl=True, err=False, color=None):\n    """Print a message and newline to stdout or a file."""\n    out = file or (sys.stderr if err else sys.stdout)\n    out.write(f"{message or ''}{chr(10) if nl else ''}")\n\n\n${pyHelpers(30, 7500)}`,
    'src/click/testing.py': `import io\nimport sys\n\n\nclass Result:\n    def __init__(self, runner, stdout_bytes, exit_code, exception):\n        self.runner = runner\n        self.stdout_bytes = stdout_bytes\n        self.exit_code = exit_code\n        self.exception = exception\n\n    @property\n    def output(self):\n        return self.stdout_bytes.decode()\n\n\nclass CliRunner:\n    def __init__(self, charset="utf-8", env=None):\n        self.charset = charset\n        self.env = env or {}\n\n    def invoke(self, cli, args=None, input=None, env=None, catch_exceptions=True, **extra):\n        exc_info = None\n        exit_code = 0\n        out = io.BytesIO()\n        try:\n            cli.main(args=args or (), prog_name="cli", **extra)\n        except SystemExit as e:\n            exit_code = e.code\n        except Exception as e:\n            if not catch_exceptions:\n                raise\n            exc_info = sys.exc_info()\n            exit_code = 1\n        return Result(self, out.getvalue(), exit_code, exc_info)\n\n\n${pyHelpers(20, 7550)}`,
    'src/click/parser.py': `class _OptionParser:\n    def __init__(self, ctx=None):\n        self.ctx = ctx\n        self._opt_prefixes = {"-", "--"}\n\n    def parse_args(self, args):\n        return {}, args, []\n\n\ndef _flag_needs_value():\n    pass\n\n\ndef _split_opt(opt):\n    return opt[:1], opt[1:]\n\n\n${pyHelpers(40, 7600)}`,
    'src/click/formatting.py': `class HelpFormatter:\n    def __init__(self, indent_increment=2, width=None, max_width=None):\n        self.buffer = []\n\n    def getvalue(self):\n        return "".join(self.buffer)\n\n\ndef join_options(options):\n    return ", ".join(options), False\n\n\n${pyHelpers(30, 7650)}`,
    'src/click/exceptions.py': `class ClickException(Exception):\n    exit_code = 1\n\n\nclass UsageError(ClickException):\n    exit_code = 2\n\n\nclass BadParameter(UsageError):\n    pass\n\n\nclass MissingParameter(BadParameter):\n    pass\n\n\nclass NoArgsIsHelpError(UsageError):\n    pass\n\n\nclass Abort(RuntimeError):\n    pass\n\n\nclass Exit(RuntimeError):\n    def __init__(self, code=0):\n        self.exit_code = code\n`,
    'src/click/globals.py': `_local = []\n\n\ndef get_current_context(silent=False):\n    return _local[-1] if _local else None\n\n\ndef push_context(ctx):\n    _local.append(ctx)\n\n\ndef pop_context():\n    _local.pop()\n`,
    'src/click/types.py': `class ParamType:\n    name = "text"\n\n\ndef convert_type(ty, default=None):\n    return ty or ParamType()\n\n\n${pyHelpers(40, 7700)}`,
    'tests/conftest.py': `import pytest\n\nfrom click.testing import CliRunner\n\n\n@pytest.fixture(scope="function")\ndef runner(request):\n    return CliRunner()\n`,
    'tests/test_options.py': CLICK_TEST,
    'tests/test_basic.py': `import click\n\n\ndef test_basic_functionality(runner):\n    @click.command()\n    def cli():\n        """Hello World!"""\n        click.echo("I EXECUTED")\n\n    result = runner.invoke(cli, ["--help"])\n    assert not result.exception\n    assert "Hello World!" in result.output\n`,
  };
}

const CLICK_OUTPUT = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /workspace
configfile: pyproject.toml
collected 6 items

tests/test_options.py .....F.                                            [100%]

=================================== FAILURES ===================================
__________________ test_eager_callbacks_keep_invocation_order __________________

runner = <click.testing.CliRunner object at 0x7f1b5c2a3d10>

    def test_eager_callbacks_keep_invocation_order(runner):
        calls = []

        def record(ctx, param, value):
            if value:
                calls.append(param.name)

        @click.command()
        @click.option("--version", is_flag=True, is_eager=True, expose_value=False, callback=record)
        @click.help_option("--assist", callback=record)
        def cli():
            pass

        runner.invoke(cli, ["--version", "--assist"])
>       assert calls == ["version", "assist"]
E       AssertionError: assert ['assist', 'version'] == ['version', 'assist']
E         At index 0 diff: 'assist' != 'version'

tests/test_options.py:{{tests/test_options.py#    assert calls == ["version", "assist"]}}: AssertionError
=========================== short test summary info ============================
FAILED tests/test_options.py::test_eager_callbacks_keep_invocation_order - AssertionError: assert ['assist', 'version'] == ['version', 'assist']
========================= 1 failed, 5 passed in 0.09s ==========================
`;

// ---------------------------------------------------------------------------------------------------
// Go: a Markdown parser's 1,875-line block.go. A data-driven test (testdata/*.tests) fails on a list
// item; the fix is near the end of listItem, a function 240 lines long.

const MD_BLOCK_HEAD = `package parser

import (
	"bytes"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/gomarkdown/markdown/ast"
)

// Parsing of inline elements

var (
	reBackslashOrAmp      = regexp.MustCompile(\`[\\\\&]\`)
	reEntityOrEscapedChar = regexp.MustCompile(\`(?i)\\\\\` + escapable + "|" + charEntity)
)

// parse block-level data.
// Note: this function and many that it calls assume that
// the input buffer ends with a newline.
func (p *Parser) Block(data []byte) {
	// this is called recursively: enforce a maximum depth
	if p.nesting >= p.maxNesting {
		return
	}
	p.nesting++

	// parse out one block-level construct at a time
	for len(data) > 0 {
		// prefixed heading:
		//
		// # Heading 1
		// ## Heading 2
		// ...
		// ###### Heading 6
		if p.isPrefixHeading(data) {
			data = data[p.prefixHeading(data):]
			continue
		}

		// block of preformatted HTML:
		//
		// <div>
		//     ...
		// </div>
		if len(data) > 0 && data[0] == '<' {
			if i := p.html(data, true); i > 0 {
				data = data[i:]
				continue
			}
		}

		// blank lines.  note: returns the # of bytes to skip
		if i := IsEmpty(data); i > 0 {
			data = data[i:]
			continue
		}

		// indented code block:
		//
		//     func max(a, b int) int {
		//         if a > b {
		//             return a
		//         }
		//         return b
		//      }
		if p.codePrefix(data) > 0 {
			data = data[p.code(data):]
			continue
		}

		// a horizontal rule:
		//
		// ------
		// or
		// ****
		// or
		// ______
		if isHRule(data) {
			i := skipUntilChar(data, 0, '\\n')
			hr := ast.HorizontalRule{}
			hr.Literal = bytes.Trim(data[:i], " \\n")
			p.AddBlock(&hr)
			data = data[i:]
			continue
		}

		// block quote:
		//
		// > A big quote I found somewhere
		// > on the web
		if p.quotePrefix(data) > 0 {
			data = data[p.quote(data):]
			continue
		}

		// an itemized/unordered list:
		//
		// * Item 1
		// * Item 2
		//
		// also works with + or -
		if p.uliPrefix(data) > 0 {
			data = data[p.list(data, 0, 0, '.'):]
			continue
		}

		// a numbered/ordered list:
		//
		// 1. Item 1
		// 2. Item 2
		if i := p.oliPrefix(data); i > 0 {
			start := 0
			delim := byte('.')
			if i > 2 {
				if p.extensions&OrderedListStart != 0 {
					s := string(data[:i-2])
					start, _ = strconv.Atoi(s)
					if start == 1 {
						start = 0
					}
				}
				delim = data[i-2]
			}
			data = data[p.list(data, ast.ListTypeOrdered, start, delim):]
			continue
		}

		// anything else must look like a normal paragraph
		// note: this finds underlined headings, too
		idx := p.paragraph(data)
		data = data[idx:]
	}

	p.nesting--
}
`;

const MD_LIST = `
// parse ordered or unordered list block
func (p *Parser) list(data []byte, flags ast.ListType, start int, delim byte) int {
	i := 0
	flags |= ast.ListItemBeginningOfList
	list := &ast.List{
		ListFlags:  flags,
		Tight:      true,
		Start:      start,
		Delimiter:  delim,
	}
	block := p.AddBlock(list)

	for i < len(data) {
		skip := p.listItem(data[i:], &flags)
		if flags&ast.ListItemContainsBlock != 0 {
			list.Tight = false
		}
		i += skip
		if skip == 0 || flags&ast.ListItemEndOfList != 0 {
			break
		}
		flags &= ^ast.ListItemBeginningOfList
	}

	above := block.GetParent() // so we can return to the right place after finalizing
	finalizeList(list)
	p.tip = above
	return i
}

// Returns true if the list item is not the same type as its parent list
func (p *Parser) listTypeChanged(data []byte, flags *ast.ListType) bool {
	if p.dliPrefix(data) > 0 && *flags&ast.ListTypeDefinition == 0 {
		return true
	} else if p.oliPrefix(data) > 0 && *flags&ast.ListTypeOrdered == 0 {
		return true
	} else if p.uliPrefix(data) > 0 && (*flags&ast.ListTypeOrdered != 0 || *flags&ast.ListTypeDefinition != 0) {
		return true
	}
	return false
}

// Returns true if block ends with a blank line, descending if needed
// into lists and sublists.
func endsWithBlankLine(block ast.Node) bool {
	// TODO: figure this out. Always false now.
	for block != nil {
		//if block.lastLineBlank {
		//return true
		//}
		switch v := block.(type) {
		case *ast.List, *ast.ListItem:
			block = ast.GetLastChild(v)
		default:
			return false
		}
	}
	return false
}

func finalizeList(list *ast.List) {
	items := list.Parent.GetChildren()
	lastItemIdx := len(items) - 1
	for i, item := range items {
		isLastItem := i == lastItemIdx
		// check for non-final list item ending with blank line:
		if !isLastItem && endsWithBlankLine(item) {
			list.Tight = false
			break
		}
		// recurse into children of list item, to see if there are spaces
		// between any of them:
		subItems := item.GetParent().GetChildren()
		lastSubItemIdx := len(subItems) - 1
		for j, subItem := range subItems {
			isLastSubItem := j == lastSubItemIdx
			if (!isLastItem || !isLastSubItem) && endsWithBlankLine(subItem) {
				list.Tight = false
				break
			}
		}
	}
}

// Parse a single list item.
// Assumes initial prefix is already removed if this is a sublist.
func (p *Parser) listItem(data []byte, flags *ast.ListType) int {
	isDefinitionList := *flags&ast.ListTypeDefinition != 0
	// keep track of the indentation of the first line
	itemIndent := 0
	if data[0] == '\\t' {
		itemIndent += 4
	} else {
		for itemIndent < 3 && data[itemIndent] == ' ' {
			itemIndent++
		}
	}

	var (
		bulletChar byte = '*'
		delimiter  byte = '.'
	)
	i := p.uliPrefix(data)
	if i == 0 {
		i = p.oliPrefix(data)
		if i > 0 {
			delimiter = data[i-2]
		}
	} else {
		bulletChar = data[i-2]
	}
	if i == 0 {
		i = p.dliPrefix(data)
		// reset definition term flag
		if i > 0 {
			*flags &= ^ast.ListTypeTerm
		}
	}
	if i == 0 {
		// if in definition list, set term flag and continue
		if *flags&ast.ListTypeDefinition != 0 {
			*flags |= ast.ListTypeTerm
		} else {
			return 0
		}
	}

	// skip leading whitespace on first line
	for i < len(data) && data[i] == ' ' {
		i++
	}

	// find the end of the line
	line := i
	for i > 0 && i < len(data) && data[i-1] != '\\n' {
		i++
	}

	// get working buffer
	var raw bytes.Buffer

	// put the first line into the working buffer
	raw.Write(data[line:i])
	line = i

	// process the following lines
	containsBlankLine := false
	sublist := 0
	codeBlockMarker := ""

gatherlines:
	for line < len(data) {
		i++

		// find the end of this line
		for i < len(data) && data[i-1] != '\\n' {
			i++
		}

		// if it is an empty line, guess that it is part of this item
		// and move on to the next line
		if IsEmpty(data[line:i]) > 0 {
			containsBlankLine = true
			line = i
			continue
		}

		// calculate the indentation
		indent := 0
		indentIndex := 0
		if data[line] == '\\t' {
			indentIndex++
			indent += 4
		} else {
			for indent < 4 && line+indent < i && data[line+indent] == ' ' {
				indent++
				indentIndex++
			}
		}

		chunk := data[line+indentIndex : i]

		// If there is a fence line (marking starting of a code block)
		// without indent do not process it as part of the list.
		if p.extensions&FencedCode != 0 {
			fenceLineEnd, _ := isFenceLine(chunk, nil, "")
			if fenceLineEnd > 0 && indent == 0 {
				*flags |= ast.ListItemEndOfList
				break gatherlines
			}
		}

		if p.extensions&FencedCode != 0 {
			// determine if in or out of codeblock
			// if in codeblock, ignore normal list processing
			_, marker := isFenceLine(chunk, nil, codeBlockMarker)
			if marker != "" {
				if codeBlockMarker == "" {
					// start of codeblock
					codeBlockMarker = marker
				} else {
					// end of codeblock.
					codeBlockMarker = ""
				}
			}
			// we are in a codeblock, write line, and continue
			if codeBlockMarker != "" || marker != "" {
				raw.Write(data[line+indentIndex : i])
				line = i
				continue gatherlines
			}
		}

		// evaluate how this line fits in
		switch {
		// is this a nested list item?
		case (p.uliPrefix(chunk) > 0 && !isHRule(chunk)) || p.oliPrefix(chunk) > 0 || p.dliPrefix(chunk) > 0:

			// if indent is 4 or more spaces on unordered or ordered lists
			// we need to add leadingWhiteSpaces + 1 spaces in the beginning of the chunk
			if indentIndex >= 4 && p.dliPrefix(chunk) <= 0 {
				leadingWhiteSpaces := skipChar(chunk, 0, ' ')
				chunk = data[line+indentIndex-(leadingWhiteSpaces+1) : i]
			}

			// to be a nested list, it must be indented more
			// if not, it is either a different kind of list
			// or the next item in the same list
			if indent <= itemIndent {
				if p.listTypeChanged(chunk, flags) {
					*flags |= ast.ListItemEndOfList
				} else if containsBlankLine {
					*flags |= ast.ListItemContainsBlock
				}

				break gatherlines
			}

			if containsBlankLine {
				*flags |= ast.ListItemContainsBlock
			}

			// is this the first item in the nested list?
			if sublist == 0 {
				sublist = raw.Len()
				// in the case of dliPrefix we are too late and need to search back for the definition item, which
				// should be on the previous line, we then adjust sublist to start there.
				if p.dliPrefix(chunk) > 0 {
					sublist = backUntilChar(raw.Bytes(), raw.Len()-1, '\\n')
				}
			}

			// is this a nested prefix heading?
		case p.isPrefixHeading(chunk), p.isPrefixSpecialHeading(chunk):
			// if the heading is not indented, it is not nested in the list
			// and thus ends the list
			if containsBlankLine && indent < 4 {
				*flags |= ast.ListItemEndOfList
				break gatherlines
			}
			*flags |= ast.ListItemContainsBlock

		// anything following an empty line is only part
		// of this item if it is indented 4 spaces
		// (regardless of the indentation of the beginning of the item)
		case containsBlankLine && indent < 4:
			if *flags&ast.ListTypeDefinition != 0 && i < len(data)-1 {
				// is the next item still a part of this list?
				next := skipUntilChar(data, i, '\\n')
				for next < len(data)-1 && data[next] == '\\n' {
					next++
				}
				if i < len(data)-1 && data[i] != ':' && next < len(data)-1 && data[next] != ':' {
					*flags |= ast.ListItemEndOfList
				}
			} else {
				*flags |= ast.ListItemEndOfList
			}
			break gatherlines

		// a blank line means this should be parsed as a block
		case containsBlankLine:
			raw.WriteByte('\\n')
			*flags |= ast.ListItemContainsBlock
		}

		// if this line was preceded by one or more blanks,
		// re-introduce the blank into the buffer
		if containsBlankLine {
			containsBlankLine = false
			raw.WriteByte('\\n')
		}

		// add the line into the working buffer without prefix
		raw.Write(data[line+indentIndex : i])

		line = i
	}

	rawBytes := raw.Bytes()

	listItem := &ast.ListItem{
		ListFlags:  *flags,
		Tight:      false,
		BulletChar: bulletChar,
		Delimiter:  delimiter,
	}
	p.AddBlock(listItem)

	// render the contents of the list item
	if *flags&ast.ListItemContainsBlock != 0 && *flags&ast.ListTypeTerm == 0 {
		// intermediate render of block item, except for definition term
		if sublist > 0 {
			p.Block(rawBytes[:sublist])
			p.Block(rawBytes[sublist:])
		} else {
			p.Block(rawBytes)
		}
	} else {
		// intermediate render of inline item
		para := &ast.Paragraph{}
		if sublist > 0 {
			para.AsLeaf().Content = rawBytes[:sublist]
		} else {
			para.AsLeaf().Content = rawBytes
		}
		p.addChild(para)
		if sublist > 0 {
			p.Block(rawBytes[sublist:])
		}
	}
	return line
}
`;

const MD_BLOCK_TEST = `package parser

import (
	"testing"
)

func TestPrefixHeaderNoExtensions(t *testing.T) {
	tests := readTestFile2(t, "prefix_header_no_extensions.tests")
	doTestsBlock(t, tests, 0)
}

func TestUnorderedList(t *testing.T) {
	tests := readTestFile2(t, "unordered_list.tests")
	doTestsBlock(t, tests, 0)
}

func TestOrderedList(t *testing.T) {
	tests := readTestFile2(t, "ordered_list.tests")
	doTestsBlock(t, tests, 0)
}

func TestNestedListItems(t *testing.T) {
	tests := readTestFile2(t, "nested_list_items.tests")
	doTestsBlock(t, tests, FencedCode)
}

func TestFencedCodeBlock(t *testing.T) {
	tests := readTestFile2(t, "fenced_code.tests")
	doTestsBlock(t, tests, FencedCode|OrderedListStart)
}
`;

const MD_HELPERS_TEST = `package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readTestFile2(t *testing.T, fileName string) []string {
	path := filepath.Join("testdata", fileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("ioutil.ReadFile('%s') failed with %s", path, err)
	}
	parts := strings.Split(string(data), "+++\\n")
	for i, s := range parts {
		parts[i] = strings.TrimSuffix(s, "\\n")
	}
	return parts
}

func doTestsBlock(t *testing.T, tests []string, extensions Extensions) {
	t.Helper()
	for i := 0; i+1 < len(tests); i += 2 {
		input := tests[i]
		expected := tests[i+1]
		p := NewWithExtensions(extensions)
		got := renderHTML(p.Parse([]byte(input)))
		if !bytes.Equal(got, []byte(expected)) {
			t.Errorf("case %d:\\ninput:    %q\\nexpected: %q\\nactual:   %q", i/2, input, expected, got)
		}
	}
}
`;

function markdownFiles(): Record<string, string> {
  return {
    ...GO_NOISE,
    'go.mod': 'module github.com/gomarkdown/markdown\n\ngo 1.19\n',
    'markdown.go': `package markdown\n\nimport (\n\t"github.com/gomarkdown/markdown/ast"\n\t"github.com/gomarkdown/markdown/parser"\n)\n\n// Parse parses markdown text.\nfunc Parse(markdown []byte, p *parser.Parser) ast.Node {\n\tif p == nil {\n\t\tp = parser.New()\n\t}\n\treturn p.Parse(markdown)\n}\n`,
    'ast/node.go': `package ast\n\nimport "fmt"\n\n// ListType contains bitwise or'ed flags for list and list item objects.\ntype ListType int\n\n// These are the possible flag values for the ListItem renderer.\nconst (\n\tListTypeOrdered ListType = 1 << iota\n\tListTypeDefinition\n\tListTypeTerm\n\n\tListItemContainsBlock\n\tListItemBeginningOfList // TODO: figure out if this is of any use now\n\tListItemEndOfList\n)\n\n// Node defines an ast node.\ntype Node interface {\n\tGetParent() Node\n\tGetChildren() []Node\n}\n\n${goFuncs(30, '', 8000)}`,
    'parser/parser.go': `package parser\n\nimport (\n\t"fmt"\n\n\t"github.com/gomarkdown/markdown/ast"\n)\n\n// Extensions is a bitmask of enabled parser extensions.\ntype Extensions int\n\n// Bit flags representing markdown parsing extensions.\nconst (\n\tNoExtensions Extensions = 0\n\tFencedCode Extensions = 1 << iota\n\tOrderedListStart\n)\n\n// Parser is a type that holds extensions and the runtime state.\ntype Parser struct {\n\textensions Extensions\n\tnesting    int\n\tmaxNesting int\n\ttip        ast.Node\n}\n\n// New creates a markdown parser with CommonExtensions.\nfunc New() *Parser { return NewWithExtensions(0) }\n\n// NewWithExtensions creates a markdown parser with given extensions.\nfunc NewWithExtensions(extension Extensions) *Parser {\n\treturn &Parser{extensions: extension, maxNesting: 16}\n}\n\n// Parse generates AST (abstract syntax tree) representing markdown document.\nfunc (p *Parser) Parse(input []byte) ast.Node {\n\tp.Block(input)\n\treturn p.tip\n}\n\n${goFuncs(50, 'p *Parser', 8100)}`,
    'parser/block.go': `${MD_BLOCK_HEAD}\n${goFuncs(50, 'p *Parser', 8200)}${MD_LIST}\n${goFuncs(8, 'p *Parser', 8260)}`,
    'parser/inline.go': `package parser\n\nimport "fmt"\n\n${goFuncs(70, 'p *Parser', 8300)}`,
    'parser/block_test.go': MD_BLOCK_TEST,
    'parser/helpers_test.go': MD_HELPERS_TEST,
    'parser/testdata/nested_list_items.tests':
      '* a\n\n  ```\n  b\n  ```\n+++\n<ul>\n<li><p>a</p>\n\n<pre><code>b\n</code></pre></li>\n</ul>\n+++\n* a\n    * b\n+++\n<ul>\n<li>a\n\n<ul>\n<li>b</li>\n</ul></li>\n</ul>\n',
    'parser/testdata/unordered_list.tests': '* Hello\n+++\n<ul>\n<li>Hello</li>\n</ul>\n',
    'parser/testdata/ordered_list.tests': '1. Hello\n+++\n<ol>\n<li>Hello</li>\n</ol>\n',
  };
}

const MD_OUTPUT = `--- FAIL: TestNestedListItems (0.00s)
    block_test.go:{{parser/block_test.go#doTestsBlock(t, tests, FencedCode)}}: testdata/nested_list_items.tests case 0:
        input:    "* a\\n\\n  \`\`\`\\n  b\\n  \`\`\`"
        expected: "<ul>\\n<li><p>a</p>\\n\\n<pre><code>b\\n</code></pre></li>\\n</ul>"
        actual:   "<ul>\\n<li><p>a</p></li>\\n</ul>\\n\\n<pre><code>b\\n</code></pre>"
FAIL
FAIL\tgithub.com/gomarkdown/markdown/parser\t0.012s
FAIL
`;

// ---------------------------------------------------------------------------------------------------
// JavaScript: a highlighter's data-file suite. The failing case is tests/languages/go/issue3412.test;
// the runner's loader reads \`components/prism-\${id}.js\`; "go" is too short a word to name a file by.

const PRISM_LOADER = `'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const components = require('../../components.json');
const { getLoader } = require('../../dependencies');

const languagesCatalog = components.languages;

/**
 * Loads the given languages and returns a new Prism instance.
 *
 * @param {string | string[]} languages
 * @returns {Prism}
 */
function createInstance(languages) {
	let context = {
		loaded: [],
		Prism: createEmptyPrism(),
	};

	context = loadLanguages(languages, context);

	return context.Prism;
}

/**
 * Loads the given languages and appends the config to the given Prism object.
 *
 * @private
 * @param {string|string[]} languages
 * @param {{loaded: string[], Prism: Prism}} context
 * @returns {{loaded: string[], Prism: Prism}}
 */
function loadLanguages(languages, context) {
	getLoader(components, toArray(languages), context.loaded).load(id => {
		if (!languagesCatalog[id]) {
			throw new Error(\\\`Language '\\\${id}' not found.\\\`);
		}

		// get the function which adds the language from the language file
		const pluginSource = loadComponentSource(id);
		// make sure the Prism variable is available to the language file
		vm.runInNewContext(pluginSource, { Prism: context.Prism });
		context.loaded.push(id);
	});

	return context;
}

/**
 * Creates a new empty prism instance
 *
 * @private
 * @returns {Prism}
 */
function createEmptyPrism() {
	const coreSource = loadComponentSource('core');
	const context = { self: {}, Prism: {} };
	vm.runInNewContext(coreSource, context);
	return context.Prism;
}

/**
 * Loads the given component's file source as string
 *
 * @private
 * @param {string} name
 * @returns {string}
 */
function loadComponentSource(name) {
	return fs.readFileSync(path.join(__dirname, '../../components', 'prism-' + name + '.js'), 'utf8');
}

function toArray(value) {
	return Array.isArray(value) ? value : value == null ? [] : [value];
}

module.exports = { createInstance };
`;

const PRISM_GO = `Prism.languages.go = Prism.languages.extend('clike', {
	'string': {
		pattern: /(^|[^\\\\])"(?:\\\\.|[^"\\\\\\r\\n])*"|\`[^\`]*\`/,
		lookbehind: true,
		greedy: true
	},
	'keyword': /\\b(?:break|case|chan|const|continue|default|defer|else|fallthrough|for|func|go(?:to)?|if|import|interface|map|package|range|return|select|struct|switch|type|var)\\b/,
	'boolean': /\\b(?:_|false|iota|nil|true)\\b/,
	'number': [
		// binary and octal integers
		/\\b0(?:b[01_]+|o[0-7_]+)i?\\b/i,
		// hexadecimal integers and floats
		/\\b0x(?:[a-f\\d_]+(?:\\.[a-f\\d_]*)?|\\.[a-f\\d_]+)(?:p[+-]?\\d+(?:_\\d+)*)?i?(?!\\w)/i,
		// decimal integers and floats
		/(?:\\b\\d[\\d_]*(?:\\.[\\d_]*)?|\\B\\.\\d[\\d_]*)(?:e[+-]?[\\d_]+)?i?(?!\\w)/i
	],
	'operator': /[*\\/%^!=]=?|\\+[=+]?|-[=-]?|\\|[=|]?|&(?:=|&|\\^=?)?|>(?:>=?|=)?|<(?:<=?|=|-)?|:=|\\.\\.\\./,
	'builtin': /\\b(?:append|bool|byte|cap|close|complex|complex(?:64|128)|copy|delete|error|float(?:32|64)|u?int(?:8|16|32|64)?|imag|len|make|new|panic|print(?:ln)?|real|recover|rune|string|uintptr)\\b/
});

Prism.languages.insertBefore('go', 'string', {
	'char': {
		pattern: /'(?:\\\\.|[^'\\\\\\r\\n]){0,10}'/,
		greedy: true
	}
});

delete Prism.languages.go['class-name'];
`;

function prismGoFiles(): Record<string, string> {
  const files = prismFiles();
  for (const p of Object.keys(files)) if (p.startsWith('tests/languages/java/')) delete files[p];
  return {
    ...JS_NOISE,
    ...files,
    'tests/helper/prism-loader.js': PRISM_LOADER,
    'dependencies.js': `'use strict';\n\n/**\n * Returns a loader for the given components.\n */\nfunction getLoader(components, load, loaded) {\n\treturn { load(fn) { load.forEach(fn); } };\n}\n\nmodule.exports = { getLoader };\n`,
    'components/prism-go.js': PRISM_GO,
    'components/prism-go-module.js':
      "Prism.languages['go-mod'] = Prism.languages['go-module'] = {\n\t'comment': {\n\t\tpattern: /\\/\\/.*/,\n\t\tgreedy: true\n\t},\n\t'version': {\n\t\tpattern: /(^|[\\s()[\\],])v\\d+\\.\\d+\\.\\d+(?:[+-][-+.\\w]*)?(?![^\\s()[\\],])/,\n\t\tlookbehind: true,\n\t\talias: 'number'\n\t},\n\t'go-version': {\n\t\tpattern: /((?:^|\\s)go\\s+)\\d+(?:\\.\\d+){1,2}/,\n\t\tlookbehind: true,\n\t\talias: 'number'\n\t},\n\t'keyword': {\n\t\tpattern: /^([ \\t]*)(?:exclude|go|module|replace|require|retract)\\b/m,\n\t\tlookbehind: true\n\t},\n\t'operator': /=>/,\n\t'punctuation': /[()[\\],]/\n};\n",
    'tests/languages/go/issue3412.test':
      'x := 0o755\ny := 1_000\n\n----------------------------------------------------\n\n[\n\t"x ",\n\t["operator", ":="],\n\t["number", "0o755"],\n\t"\\ny ",\n\t["operator", ":="],\n\t["number", "1_000"]\n]\n',
    'tests/languages/go/string_feature.test':
      '"a"\n\n----------------------------------------------------\n\n[\n\t["string", "\\"a\\""]\n]\n',
    'examples/prism-go.html':
      '<h2>Comments</h2>\n<pre><code>// This is a comment\n/* This is a comment\non multiple lines */</code></pre>\n',
  };
}

const PRISM_GO_OUTPUT = `

  Testing language 'go'
    1) – should pass test case 'issue3412'
    ✓ – should pass test case 'string_feature'


  1 passing (388ms)
  1 failing

  1) Testing language 'go'
       – should pass test case 'issue3412':

      AssertionError: 
-----------------------------------------
Expected Token Stream:
[
	"x ",
	["operator", ":="],
	["number", "0o755"],
	"\\ny ",
	["operator", ":="],
	["number", "1_000"]
]
-----------------------------------------
Actual Token Stream:
[
	"x ",
	["operator", ":="],
	["number", "0"],
	"o755\\ny ",
	["operator", ":="],
	["number", "1_000"]
]
-----------------------------------------
The expected token stream differs from the actual token stream.
Either change the language definition or the test case.
      + expected - actual

      at Object.runTestCase (tests/helper/test-case.js:{{tests/helper/test-case.js#assert.deepEqual(simplifiedTokenStream}}:10)
      at Context.<anonymous> (tests/run.js:{{tests/run.js#TestCase.runTestCase(languageIdentifier, filePath}}:14)
      at process.processImmediate (node:internal/timers:476:21)
`;

// ---------------------------------------------------------------------------------------------------
// JavaScript, a passing baseline: an arbitrary-precision library's 1,000-line big.js (and its ESM twin
// big.mjs). The tests pass; the directive names the file, the function (round) and quotes a line.

/** big.js's internal round, its callers and the rest of its prototype, in one module (about 1,000 lines). */
function bigJs(esm: boolean): string {
  const methods = Array.from(
    { length: 38 },
    (_, k) => `
  /*
   * Return a new Big whose value is the value of this Big ${['plus', 'minus', 'times', 'over', 'mod', 'pow'][k % 6]} the value of Big y (${k}).
   */
  P.${['abs', 'cmp', 'div', 'eq', 'gt', 'gte', 'lt', 'lte', 'minus', 'mod', 'neg', 'plus', 'pow', 'prec', 'sqrt', 'times', 'toExponential', 'toFixed', 'toJSON'][k % 19]}${k >= 19 ? k : ''} = function (y) {
    var i, j, t,
      x = this,
      Big = x.constructor,
      xc = x.c,
      yc = (y = new Big(y)).c,
      xs = x.s,
      ys = y.s,
      xe = x.e,
      ye = y.e;

    // Either zero?
    if (!xc[0] || !yc[0]) return !xc[0] ? !yc[0] ? 0 : -ys : xs;

    // Signs differ?
    if (xs != ys) return xs;

    i = xs < 0;

    // Compare exponents.
    if (xe != ye) return xe > ye ^ i ? 1 : -1;

    j = (xe = xc.length) < (ye = yc.length) ? xe : ye;

    // Compare digit by digit.
    for (i = -1; ++i < j;) {
      if (xc[i] != yc[i]) return xc[i] > yc[i] ^ xs < 0 ? 1 : -1;
    }

    // Compare lengths.
    return xe == ye ? 0 : xe > ye ^ xs < 0 ? 1 : -1;
  };
`,
  ).join('');
  return `/*
 *  big.js v6.2.1
 *  A small, fast, easy-to-use library for arbitrary-precision decimal arithmetic.
 *  Copyright (c) 2022 Michael Mclaughlin
 *  https://github.com/MikeMcl/big.js/LICENCE.md
 */
${esm ? '' : ";(function (GLOBAL) {\n  'use strict';\n"}
  var Big,


/************************************** EDITABLE DEFAULTS *****************************************/


    // The default values below must be integers within the stated ranges.

    /*
     * The maximum number of decimal places (DP) of the results of operations involving division:
     * div and sqrt, and pow with negative exponents.
     */
    DP = 20,            // 0 to MAX_DP

    /*
     * The rounding mode (RM) used when rounding to the above decimal places.
     *
     *  0  Towards zero (i.e. truncate, no rounding).       (ROUND_DOWN)
     *  1  To nearest neighbour. If equidistant, round up.  (ROUND_HALF_UP)
     *  2  To nearest neighbour. If equidistant, to even.   (ROUND_HALF_EVEN)
     *  3  Away from zero.                                  (ROUND_UP)
     */
    RM = 1,             // 0, 1, 2 or 3

    // The maximum value of DP and Big.DP.
    MAX_DP = 1E6,       // 0 to 1000000

    // The maximum magnitude of the exponent argument to the pow method.
    MAX_POWER = 1E6,    // 1 to 1000000

    /*
     * The negative exponent (NE) at and beneath which toString returns exponential notation.
     * (JavaScript numbers: -7)
     * -1000000 is the minimum recommended exponent value of a Big.
     */
    NE = -7,            // 0 to -1000000

    /*
     * The positive exponent (PE) at and above which toString returns exponential notation.
     * (JavaScript numbers: 21)
     * 1000000 is the maximum recommended exponent value of a Big, but this limit is not enforced.
     */
    PE = 21,            // 0 to 1000000

    /*
     * When true, an error will be thrown if a primitive number is passed to the Big constructor,
     * or if valueOf is called, or if toNumber is called on a Big which cannot be converted to a
     * primitive number without a loss of precision.
     */
    STRICT = false,     // true or false


/**************************************************************************************************/


    // Error messages.
    NAME = '[big.js] ',
    INVALID = NAME + 'Invalid ',
    INVALID_DP = INVALID + 'decimal places',
    INVALID_RM = INVALID + 'rounding mode',
    DIV_BY_ZERO = NAME + 'Division by zero',

    // The shared prototype object.
    P = {},
    UNDEFINED = void 0,
    NUMERIC = /^-?(\\d+(\\.\\d*)?|\\.\\d+)(e[+-]?\\d+)?$/i;


  /*
   * Create and return a Big constructor.
   */
  function _Big_() {

    /*
     * The Big constructor and exported function.
     * Create and return a new instance of a Big number object.
     *
     * n {number|string|Big} A numeric value.
     */
    function Big(n) {
      var x = this;

      // Enable constructor usage without new.
      if (!(x instanceof Big)) return n === UNDEFINED ? _Big_() : new Big(n);

      // Duplicate.
      if (n instanceof Big) {
        x.s = n.s;
        x.e = n.e;
        x.c = n.c.slice();
      } else {
        if (typeof n !== 'string') {
          if (Big.strict === true && typeof n !== 'bigint') {
            throw TypeError(INVALID + 'value');
          }

          // Minus zero?
          n = n === 0 && 1 / n < 0 ? '-0' : String(n);
        }

        parse(x, n);
      }

      // Retain a reference to this Big constructor.
      // Shadow Big.prototype.constructor which points to Object.
      x.constructor = Big;
    }

    Big.prototype = P;
    Big.DP = DP;
    Big.RM = RM;
    Big.NE = NE;
    Big.PE = PE;
    Big.strict = STRICT;
    Big.roundDown = 0;
    Big.roundHalfUp = 1;
    Big.roundHalfEven = 2;
    Big.roundUp = 3;

    return Big;
  }


  /*
   * Parse the number or string value passed to a Big constructor.
   *
   * x {Big} A Big number instance.
   * n {number|string} A numeric value.
   */
  function parse(x, n) {
    var e, i, nl;

    if (!NUMERIC.test(n)) {
      throw Error(INVALID + 'number');
    }

    // Determine sign.
    x.s = n.charAt(0) == '-' ? (n = n.slice(1), -1) : 1;

    // Decimal point?
    if ((e = n.indexOf('.')) > -1) n = n.replace('.', '');

    // Exponential form?
    if ((i = n.search(/e/i)) > 0) {

      // Determine exponent.
      if (e < 0) e = i;
      e += +n.slice(i + 1);
      n = n.substring(0, i);
    } else if (e < 0) {

      // Integer.
      e = n.length;
    }

    nl = n.length;

    // Determine leading zeros.
    for (i = 0; i < nl && n.charAt(i) == '0';) ++i;

    if (i == nl) {

      // Zero.
      x.c = [x.e = 0];
    } else {

      // Determine trailing zeros.
      for (; nl > 0 && n.charAt(--nl) == '0';);
      x.e = e - i - 1;
      x.c = [];

      // Convert string to array of digits without leading/trailing zeros.
      for (e = 0; i <= nl;) x.c[e++] = +n.charAt(i++);
    }

    return x;
  }


  /*
   * Round Big x to a maximum of sd significant digits using rounding mode rm.
   *
   * x {Big} The Big to round.
   * sd {number} Significant digits: integer, 0 to MAX_DP inclusive.
   * rm {number} Rounding mode: 0 (down), 1 (half-up), 2 (half-even) or 3 (up).
   * [more] {boolean} Whether the result of division was truncated.
   */
  function round(x, sd, rm, more) {
    var xc = x.c;

    if (rm === UNDEFINED) rm = x.constructor.RM;
    if (rm !== 0 && rm !== 1 && rm !== 2 && rm !== 3) {
      throw Error(INVALID_RM);
    }

    if (sd < 1) {
      more =
        rm === 3 && (more || !!xc[0]) || sd === 0 && (
        rm === 1 && xc[0] >= 5 ||
        rm === 2 && (xc[0] > 5 || xc[0] === 5 && (more || xc[1] !== UNDEFINED))
      );

      xc.length = 1;

      if (more) {

        // 1, 0.1, 0.01, 0.001, 0.0001 etc.
        x.e = x.e - sd + 1;
        xc[0] = 1;
      } else {

        // Zero.
        xc[0] = x.e = 0;
      }
    } else if (sd < xc.length) {

      // xc[sd] is the digit after the digit that may be rounded up.
      more =
        rm === 1 && xc[sd] >= 5 ||
        rm === 2 && (xc[sd] > 5 || xc[sd] === 5 &&
          (more || xc[sd + 1] !== UNDEFINED || xc[sd - 1] & 1)) ||
        rm === 3 && (more || !!xc[0]);

      // Remove any digits after the required precision.
      xc.length = sd--;

      // Round up?
      if (more) {

        // Rounding up may mean the previous digit has to be rounded up.
        for (; ++xc[sd] > 9;) {
          xc[sd] = 0;
          if (sd === 0) {
            ++x.e;
            xc.unshift(1);
            break;
          }
        }
      }

      // Remove trailing zeros.
      for (sd = xc.length; !xc[--sd];) xc.pop();
    }

    return x;
  }


  /*
   * Return a string representing the value of Big x in normal or exponential notation.
   * Handles P.toExponential, P.toFixed, P.toJSON, P.toPrecision, P.toString and P.valueOf.
   */
  function stringify(x, doExponential, isNonzero) {
    var e = x.e,
      s = x.c.join(''),
      n = s.length;

    // Exponential notation?
    if (doExponential) {
      s = s.charAt(0) + (n > 1 ? '.' + s.slice(1) : '') + (e < 0 ? 'e' : 'e+') + e;

    // Normal notation.
    } else if (e < 0) {
      for (; ++e;) s = '0' + s;
      s = '0.' + s;
    } else if (e > 0) {
      if (++e > n) {
        for (e -= n; e--;) s += '0';
      } else if (e < n) {
        s = s.slice(0, e) + '.' + s.slice(e);
      }
    } else if (n > 1) {
      s = s.charAt(0) + '.' + s.slice(1);
    }

    return x.s < 0 && isNonzero ? '-' + s : s;
  }


  // Prototype/instance methods
${methods}

  /*
   * Return a new Big whose value is the value of this Big rounded to a maximum of dp decimal places
   * using rounding mode rm, or Big.RM if rm is not specified.
   * If dp is negative, round to an integer which is a multiple of 10**-dp.
   * If dp is not specified, round to 0 decimal places.
   *
   * dp? {number} Integer, -MAX_DP to MAX_DP inclusive.
   * rm? 0, 1, 2 or 3 (ROUND_DOWN, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_UP)
   */
  P.round = function (dp, rm) {
    if (dp === UNDEFINED) dp = 0;
    else if (dp !== ~~dp || dp < -MAX_DP || dp > MAX_DP) {
      throw Error(INVALID_DP);
    }
    return round(new this.constructor(this), dp + this.e + 1, rm);
  };


  /*
   * Return a string representing the value of this Big.
   * Return exponential notation if this Big has a positive exponent equal to or greater than
   * Big.PE, or a negative exponent equal to or less than Big.NE.
   * Omit the sign for negative zero.
   */
  P.toString = function () {
    var x = this,
      Big = x.constructor;
    return stringify(x, x.e <= Big.NE || x.e >= Big.PE, !!x.c[0]);
  };


  // Export


  Big = _Big_();

  Big['default'] = Big.Big = Big;

${
  esm
    ? 'export { Big };\nexport default Big;\n'
    : `  //AMD.
  if (typeof define === 'function' && define.amd) {
    define(function () { return Big; });

  // Node and other CommonJS-like environments that support module.exports.
  } else if (typeof module !== 'undefined' && module.exports) {
    module.exports = Big;

  //Browser.
  } else {
    GLOBAL.Big = Big;
  }
})(this);
`
}`;
}

function bigJsFiles(): Record<string, string> {
  return {
    ...JS_NOISE,
    'package.json':
      '{ "name": "big.js", "version": "6.2.1", "main": "big.js", "module": "big.mjs", "scripts": { "test": "node ./test/runner.js" } }\n',
    'big.js': bigJs(false),
    'big.mjs': bigJs(true),
    'test/runner.js': `var cp = require('child_process');\n\nvar methods = ['abs', 'cmp', 'div', 'minus', 'mod', 'plus', 'pow', 'round', 'sqrt', 'times', 'toExponential', 'toFixed', 'toPrecision'];\n\nfor (var i = 0; i < methods.length; i++) {\n  cp.execSync('node ./test/methods/' + methods[i] + '.js', { stdio: 'inherit' });\n}\n`,
    'test/methods/round.js': `var Big = require('../../big');\nvar t = require('../setup');\n\nt('round', function () {\n  t.isEqual('0', new Big(0).round().toString());\n  t.isEqual('1', new Big(0.5).round().toString());\n  t.isEqual('-1', new Big(-0.5).round().toString());\n  t.isEqual('0.1', new Big(0.05).round(1).toString());\n});\n`,
    'test/setup.js': `var passed = 0;\n\nfunction t(name, fn) {\n  fn();\n  console.log('  ' + name + ' ' + passed + ' passed');\n}\n\nt.isEqual = function (expected, actual) {\n  if (expected !== actual) throw new Error('expected ' + expected + ', got ' + actual);\n  passed++;\n};\n\nmodule.exports = t;\n`,
    'perf/big-vs-number.js': `var Big = require('../big');\n\nfor (var i = 0; i < 1000; i++) new Big(i).times(2);\n`,
  };
}

/** The cases of this file. */
export const REGION_CASES: ContextCase[] = [
  {
    name: "py test calls click.help_option; the fix in core.py's HelpOption and in get_help_option, which returns it",
    shape: 'large file, regions by name',
    language: 'python',
    files: clickFiles(),
    directive:
      'Since 8.2 a `help_option` given after another eager option runs first: `--version --assist` prints the help page instead of the version.',
    output: CLICK_OUTPUT,
    fix: [
      { path: 'src/click/core.py', line: 'return HelpOption(help_option_names)' },
      { path: 'src/click/core.py', line: 'kwargs.setdefault("callback", self.show_help)' },
      { path: 'CHANGES.rst', line: 'Drop support for Python 3.7.' },
    ],
  },
  {
    name: 'go data-driven test of list items; the fix 180 lines into listItem, in a 1,900-line block.go',
    shape: 'large file, regions by name',
    language: 'go',
    files: markdownFiles(),
    directive: 'A fenced code block indented under a list item, after a blank line, ends the list.',
    output: MD_OUTPUT,
    fix: [{ path: 'parser/block.go', line: 'case containsBlankLine && indent < 4:' }],
  },
  {
    name: "js highlighter's data file tests/languages/go/…; the runner loads components/prism-<id>.js",
    shape: 'data files lead to code',
    language: 'javascript',
    files: prismGoFiles(),
    directive: 'Go octal literals with the 0o prefix are not highlighted as numbers.',
    output: PRISM_GO_OUTPUT,
    fix: [{ path: 'components/prism-go.js', line: '/\\b0(?:b[01_]+|o[0-7_]+)i?\\b/i,' }],
  },
  {
    name: 'js passing baseline: the directive links big.js, names round and quotes a line of it',
    shape: 'passing baseline, named function',
    language: 'javascript',
    files: bigJsFiles(),
    directive:
      'Rounding up loses the carry (https://github.com/MikeMcl/big.js/blob/v6.2.1/big.js#L224): in round, after `xc.length = sd--` the loop that rounds the previous digit up never moves to it, so 0.99 rounded up to one digit gives 0 instead of 1.',
    output: '',
    fix: [{ path: 'big.js', line: 'for (; ++xc[sd] > 9;) {' }],
  },
];
