import copy

import torch

from config import DEFAULT_ARGS
from learner import MAPPOLearner


class ToyMultiAgentEnv:
    def __init__(self, args, seed):
        self.args = args
        self.gen = torch.Generator().manual_seed(seed)

    def rollout(self, learner):
        a = self.args
        B, T, N = a["batch_size_run"], a["episode_limit"], a["n_agents"]
        obs = torch.randn(B, T, N, a["obs_dim"], generator=self.gen)
        state = torch.randn(B, T, a["state_dim"], generator=self.gen)
        actions, log_probs = learner.select_actions(obs)
        reward = (actions == 0).float().mean(-1) + 0.1 * torch.randn(B, T, generator=self.gen)
        terminated = torch.zeros(B, T)
        terminated[:, -1] = 1.0
        return {"obs": obs, "state": state, "actions": actions, "log_probs": log_probs,
                "reward": reward, "terminated": terminated}


def run(args):
    torch.manual_seed(0)
    learner = MAPPOLearner(args)
    env = ToyMultiAgentEnv(args, seed=1)
    for t_env in range(args["t_max"]):
        batch = env.rollout(learner)
        loss = learner.train(batch)
        print(f"t_env={t_env} loss={loss:.4f}")


if __name__ == "__main__":
    run(copy.deepcopy(DEFAULT_ARGS))
