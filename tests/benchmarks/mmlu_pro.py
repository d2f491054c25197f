"""An audit file of real chain-of-thought responses: MMLU-Pro's outputs of four models.

``../shared/data/mmlu-pro-outputs/`` holds the published MMLU-Pro model outputs
(Apache-2.0): per model, a JSON list of every question (its text, options, answer
letter and category) with the model's 5-shot chain-of-thought reply
(``generated_text``, or ``model_outputs`` in one file; "The answer is (X)" when the
model gave one).
:func:`write_mmlu_pro` turns them into an audit database with the desk's own import
code, as a user would: the questions through ``ai4hse-desk import questions`` (one
TRUE option each, the category as topic), then each model's replies through
``ai4hse-desk import responses --track single_choice`` (one repetition, five-shot).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

#: The outputs: ``$AI4HSE_PUBLIC_DATA/mmlu-pro-outputs`` (default ``../shared/data``).
DATA = (
    Path(
        os.environ.get(
            "AI4HSE_PUBLIC_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"
        )
    )
    / "mmlu-pro-outputs"
)


def _outputs(path: Path) -> list[dict[str, object]]:
    with zipfile.ZipFile(path) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".json")]
        records: list[dict[str, object]] = json.loads(archive.read(name))
    return records


def _model(path: Path) -> str:
    return path.stem.removeprefix("model_outputs_").removesuffix("_5shots")


def write_mmlu_pro(out: Path, data: Path = DATA) -> dict[str, int]:
    """Write the audit database ``out`` (new) from the zips in ``data``; its counts."""
    zips = sorted(data.glob("model_outputs_*.zip"))
    if not zips:
        raise SystemExit(f"no MMLU-Pro outputs in {data}")
    python = [sys.executable, "-m", "ai4hse_desk"]
    runs: dict[str, list[dict[str, object]]] = {_model(path): _outputs(path) for path in zips}
    questions: dict[str, dict[str, object]] = {}
    for records in runs.values():
        for record in records:
            questions.setdefault(f"MMLU-Pro-{record['question_id']}", record)
    with tempfile.TemporaryDirectory(prefix="mmlu-pro-") as folder:
        work = Path(folder)
        table = work / "questions.csv"
        with table.open("w", encoding="utf-8", newline="") as sink:
            writer = csv.writer(sink)
            writer.writerow(["question_id", "question", "option", "correct", "topic"])
            for question_id, record in questions.items():
                options = record["options"]
                assert isinstance(options, list)
                for position, option in enumerate(options):
                    correct = "TRUE" if position == int(str(record["answer_index"])) else "FALSE"
                    writer.writerow(
                        [question_id, record["question"], option, correct, record["category"]]
                    )
        subprocess.run(
            [*python, "import", "questions", str(table), "--out", str(out),
             "--benchmark", "MMLU-Pro (published model outputs)"],
            check=True, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        attempts = 0
        for model, records in runs.items():
            replies = work / f"{model}.jsonl"
            with replies.open("w", encoding="utf-8") as sink:
                for record in records:
                    row = {
                        "question_id": f"MMLU-Pro-{record['question_id']}",
                        "repetition": 1,
                        "state": "answered",
                        "response": record.get("generated_text", record.get("model_outputs")),
                        "finish_reason": "stop",
                    }
                    sink.write(json.dumps(row) + "\n")
                    attempts += 1
            subprocess.run(
                [*python, "import", "responses", str(out), str(replies), "--run-id", model,
                 "--model", model, "--track", "single_choice", "--prompt-setting", "five_shot"],
                check=True, stderr=subprocess.DEVNULL,
            )  # fmt: skip
    return {"questions": len(questions), "runs": len(runs), "attempts": attempts}


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "out/bench/mmlu-pro-cot.sqlite")
    print(write_mmlu_pro(target))
