"""The `salad` command in French (issue #35): ``--lang``, the environment, the help, the rules,
the score sheet and the errors; and in the pseudo-locale, where every string of the catalog
is bracketed.

Each run is in a copy of the context: the language a run chooses must not leak into the next
test (it is a context variable, set for the rest of a process by ``salad.cli.main``).
"""

from __future__ import annotations

import contextvars
import gettext
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from salad.cli import app, language_asked, main, make_app
from salad.cli.errors import run_app
from salad.locale import current, using
from salad.presets import PRESETS
from salad.sheet import ScoreSheet

NBSP = "\u00a0"


def _main(monkeypatch: pytest.MonkeyPatch, args: list[str], env: dict[str, str]) -> int:
    """``salad ARGS`` as the console script runs it, in ``env``; its exit status."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "argv", ["salad", *args])

    def run() -> int:
        with pytest.raises(SystemExit) as done:
            main()
        return int(done.value.code or 0)

    return contextvars.copy_context().run(run)


def test_lang_fr_rules_in_french(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert _main(monkeypatch, ["--lang", "fr", "rules"], {}) == 0
    out = capsys.readouterr().out
    assert out.startswith("Salade canadienne (préréglage canadian)\n")
    assert f"Paquet{NBSP}: Trèfles ♣ (T), Carreaux ♦ (K), Cœurs ♥ (C), Piques ♠ (P)" in out
    assert "2 3 4 5 6 7 8 9 10 V D R A" in out
    assert f"  4 joueurs{NBSP}: aucune" in out
    assert f"le plus petit total gagne{NBSP}:" in out
    assert "  2. Pas de cœurs  (total 130)" in out
    assert f"Dames{NBSP}: 25 par carte{NBSP}: D de n'importe quelle couleur" in out
    assert f"Roi de pique{NBSP}: 100 pour RP" in out
    assert "Salade (tout à la fois)" in out
    assert f"Total de contrôle{NBSP}: chaque partie distribue 1120 points en tout" in out
    assert current().code == "en"  # the run's language stayed in the run


def test_the_language_from_the_environment(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert _main(monkeypatch, ["--help"], {"LANG": "fr_CA.UTF-8"}) == 0
    out = capsys.readouterr().out
    assert f"Utilisation{NBSP}: salad [OPTIONS] COMMANDE [ARGUMENTS]..." in out
    assert "Commandes" in out
    assert "Affiche ce message et quitte." in out
    assert "Langue de la commande" in out
    assert "Show this message" not in out and "Usage:" not in out
    # LANGUAGE first, as gettext has it; C is English
    monkeypatch.setenv("LANG", "C")
    assert language_asked([]) == "en"
    monkeypatch.setenv("LANGUAGE", "fr")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert language_asked(["rules"]) == "fr"
    assert language_asked(["--lang", "en", "rules"]) == "en"


def test_a_command_help_in_french(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    wide = {"LANG": "C", "COLUMNS": "200"}  # each help text on one line
    assert _main(monkeypatch, ["--lang", "fr", "score", "--help"], wide) == 0
    out = capsys.readouterr().out
    assert "Tient le pointage d'une table" in out
    assert "Nombre de joueurs" in out
    assert "Reprend une feuille enregistrée avec /save" in out
    assert "URL-OU-FICHIER" in out and "ENTIER" in out
    assert _main(monkeypatch, ["--lang", "fr", "rules", "--help"], {"LANG": "C"}) == 0
    assert "salad rules [OPTIONS] [RÈGLES]" in capsys.readouterr().out
    assert _main(monkeypatch, ["rules", "--help"], {"LANG": "C"}) == 0
    assert "salad rules [OPTIONS] [RULESET]" in capsys.readouterr().out


def test_a_bad_lang_is_one_line_naming_the_languages(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    assert _main(monkeypatch, ["--lang", "de", "rules"], {"LANG": "C"}) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: ") and "'de'" in err and "en, fr, en-XA" in err
    assert _main(monkeypatch, ["--lang", "xx", "rules"], {"LANG": "fr_CA.UTF-8"}) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"erreur{NBSP}: ") and "langue inconnue 'xx'" in err


def test_errors_are_one_line_in_french(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert _main(monkeypatch, ["--lang", "fr", "rules", "no-such-rules"], {}) == 1
    err = capsys.readouterr().err
    assert err == (
        f"erreur{NBSP}: règles{NBSP}: préréglage ou fichier inconnu 'no-such-rules' "
        f"(préréglages{NBSP}: {', '.join(PRESETS)})\n"
    )


def test_the_parsers_own_errors_are_in_french(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """Click's own messages (an unknown option or command, a missing value, a value of the
    wrong type) in the language of the run, and back in English after it."""
    domain = gettext.textdomain()
    runs = [
        (["--lang", "fr", "play", "--colour"], {}, f"option inconnue{NBSP}: '--colour'"),
        (["play", "--sed", "3"], {"LANG": "fr_CA.UTF-8"}, "Voulais-tu dire l'une de celles-ci"),
        (["--lang", "fr", "play", "--bots"], {}, "l'option '--bots' demande un argument"),
        (["--lang", "fr", "frob"], {}, f"commande inconnue{NBSP}: 'frob' (voir salad --help)"),
        (["--lang", "fr", "simulate", "-g", "x"], {}, "'x' n'est pas un nombre valide (voir"),
    ]
    for args, env, said in runs:
        assert _main(monkeypatch, args, env) == 2, args
        err = capsys.readouterr().err
        assert err.startswith(f"erreur{NBSP}: ") and err.count("\n") == 1, err
        assert said in err, err
        assert gettext.textdomain() == domain  # the global domain put back after the run
        assert "LANGUAGE" not in os.environ
    assert _main(monkeypatch, ["play", "--colour"], {"LANG": "C"}) == 2
    assert capsys.readouterr().err.startswith("error: no such option '--colour'")

    # Typer's CliRunner runs the app without run_app: --lang leaves gettext as it was.
    def invoke() -> int:
        return CliRunner().invoke(app, ["--lang", "fr", "rules"]).exit_code

    assert contextvars.copy_context().run(invoke) == 0
    assert gettext.textdomain() == domain
    assert "LANGUAGE" not in os.environ


def test_the_parsers_words_stay_english_where_the_cache_cannot_be_written(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    """The compiled catalog goes to the user's cache directory; where that cannot be written,
    Click's words stay in English and everything else is French."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert _main(monkeypatch, ["--lang", "fr", "play", "--colour"], {}) == 2
    err = capsys.readouterr().err
    assert err == f"erreur{NBSP}: no such option '--colour' (voir salad play --help)\n"


def test_typers_help_marks_in_french_in_a_process_of_its_own(tmp_path: Path) -> None:
    """Typer reads its help's marks (``[default: ...]``) once a process, when it first shows a
    help: a `salad` run in French shows them in French."""
    env = {**os.environ, "LANG": "C", "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("LANGUAGE", None)
    done = subprocess.run(
        [sys.executable, "-m", "salad.cli", "--lang", "fr", "simulate", "--help"],
        capture_output=True,
        text=True,
        env={**env, "COLUMNS": "100"},
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"[par défaut{NBSP}: canadian]" in done.stdout
    assert "[default:" not in done.stdout


LETTERS = re.compile(r"[A-Za-z]{2,}")


def test_the_pseudo_locale_brackets_every_line(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Every line of `salad --lang en-XA rules` comes from the catalog: bracketed, or only
    names, numbers and cards (the preset's code, card codes)."""
    assert _main(monkeypatch, ["--lang", "en-XA", "rules"], {}) == 0
    out = capsys.readouterr().out
    for line in out.splitlines():
        if not line.strip():
            continue
        outside = re.sub(r"\[[^\[\]]*\]", "", line)
        while outside != (inner := re.sub(r"\[[^\[\]]*\]", "", outside)):
            outside = inner
        words = [w for w in LETTERS.findall(outside) if w not in ("canadian", "KS")]
        assert "[" in line and not words, line


def test_the_app_in_english_is_unchanged() -> None:
    result = CliRunner().invoke(app, ["rules"])
    assert result.exit_code == 0
    assert result.output.startswith("Canadian Salad (preset canadian)\n")
    assert "Queens: 25 per card: Q of any suit" in result.output


def test_lang_through_run_app_stays_in_the_run(capsys: Any) -> None:
    assert run_app(make_app(), ["--lang", "fr", "rules", "-n", "3"]) == 0
    assert "Donnes à 3 joueurs (17 levées par donne)" in capsys.readouterr().out
    assert current().code == "en"


def test_salad_score_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["Ann, Bob, Cy, Di", "bob", "3 4 3 3", "zed", "ann 4 bob 9", "/show", "/quit", "/quit"]

    def run() -> Any:
        return CliRunner().invoke(app, ["--lang", "fr", "score"], input="\n".join(lines) + "\n")

    result = contextvars.copy_context().run(run)
    out = result.output
    assert result.exit_code == 0, out
    assert "Salade canadienne, 4 joueurs. 6 donnes de 13 levées; le plus petit total gagne" in out
    assert f"Nom du joueur 1 (ou tous les noms, séparés par des virgules){NBSP}:" in out
    assert f"Donne 1 sur 6{NBSP}: Pas de levées  (Bob distribue)" in out
    assert f"Levées{NBSP}: 10 par levée (13 en tout)" in out
    assert f"Cœurs{NBSP}: 'zed' n'est pas un joueur (Ann, Bob, Cy, Di)" in out
    assert f"Totaux après la donne 2{NBSP}: Ann 70  Bob 130  Cy 30  Di 30" in out
    assert "Salade canadienne" in out and "│ 2 │ Pas de cœurs" in out
    assert "Somme" in out and "Prochaine" in out
    assert "La feuille n'est pas enregistrée" in out
    assert current().code == "en"


def test_the_score_sheet_asks_in_french() -> None:
    """The questions and problems the server's score sheet shows too."""
    sheet = ScoreSheet(PRESETS["canadian"], ["Ann", "Bob", "Cy", "Di"])
    with using("fr"):
        assert sheet.fields()[0].question == (
            "Combien de levées chaque joueur a-t-il faites? (13 en tout)"
        )
        assert sheet.check({"tricks": [3, 4, 3, 2]}) == [
            f"Levées{NBSP}: le total est 12, mais 13 ont été jouées"
        ]
        sheet.enter({"tricks": [3, 4, 3, 3]})
        sheet.enter({"hearts": [4, 9, 0, 0]})
        sheet.enter({"queens": [1, 1, 1, 1]})
        king = sheet.fields()[0]
        assert king.title == "Roi de pique (RP)"
        assert king.question == f"Roi de pique (RP){NBSP}: qui a pris cette carte?"
        view = sheet.to_view() if hasattr(sheet, "to_view") else None
        if view is not None:
            assert view["title"] == "Salade canadienne"
    assert sheet.fields()[0].question == "Who took the King of Spades (KS)?"


def test_review_labels_in_french() -> None:
    from salad.lab.review_text import label_text

    with using("fr"):
        assert [label_text(x) for x in ("good", "inaccuracy", "mistake", "blunder")] == [
            "bon",
            "imprécision",
            "erreur",
            "gaffe",
        ]
    assert label_text("blunder") == "blunder"


def test_one_line_keeps_the_no_break_space() -> None:
    from salad.cli.errors import one_line

    assert one_line(f" a\n  b{NBSP}: c ") == f"a b{NBSP}: c"
