"""A fourth tool declared in the registry alone gets its function, grant and route."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from infra import names
from tests.infrastructure.conftest import SYNTH_ENVIRONMENTS, app_environment, render

# What a new tool's author writes: one Function and one Tool in the registry (here added
# before the app runs, as the registry module would hold them).
DECLARE_AND_SYNTH = """
import runpy, sys
from typing import Annotated
from pydantic import BaseModel, ConfigDict, Field
import registry

class StoreHoursInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    day: Annotated[str, Field(description="Day of the week")]

hours = registry.Function("store_hours", "Tool: the store's opening hours", 5, 128)
registry.FUNCTIONS = (*registry.FUNCTIONS, hours)
registry.TOOLS = (*registry.TOOLS, registry.Tool(
    "get_store_hours", "Opening hours of the shop for one day.", StoreHoursInput, hours))
sys.argv = ["app.py"]
runpy.run_path("app.py", run_name="__main__")
"""


def test_a_tool_added_to_the_registry_is_deployed_and_routed(tmp_path: Path) -> None:
    env = app_environment({**SYNTH_ENVIRONMENTS["dev"], "CDK_OUTDIR": str(tmp_path)})
    result = subprocess.run(
        [sys.executable, "-c", DECLARE_AND_SYNTH],
        cwd=names.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    template = json.loads((tmp_path / f"{names.stack_name('dev')}.template.json").read_text())
    resources = template["Resources"]
    # The template has its function, with the registry's settings
    function_id, function = next(
        (k, r)
        for k, r in resources.items()
        if r["Type"] == "AWS::Lambda::Function"
        and r["Properties"].get("Handler") == "store_hours.handler.lambda_handler"
    )
    assert function["Properties"]["Timeout"] == 5
    assert function["Properties"]["MemorySize"] == 128
    # The state machine routes the tool's name to that function
    machine = next(r for r in resources.values() if r["Type"] == "AWS::StepFunctions::StateMachine")
    routes = render(machine["Properties"]["DefinitionSubstitutions"])["ToolFunctions"]
    assert f"'get_store_hours': '<{function_id}.Arn>'" in routes
    # And the state machine's role may invoke it
    role = render(machine["Properties"]["RoleArn"]).strip("<>").removesuffix(".Arn")
    statements = [
        s
        for r in resources.values()
        if r["Type"] == "AWS::IAM::Policy"
        and any(render(x).strip("<>") == role for x in r["Properties"].get("Roles", []))
        for s in r["Properties"]["PolicyDocument"]["Statement"]
    ]
    invocable = [
        render(resource)
        for s in statements
        if "lambda:InvokeFunction" in json.dumps(s["Action"])
        for resource in (s["Resource"] if isinstance(s["Resource"], list) else [s["Resource"]])
    ]
    assert f"<{function_id}.Arn>" in invocable, invocable
