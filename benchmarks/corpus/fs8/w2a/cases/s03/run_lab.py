import torch

from dqn import ALGORITHMS

SPEC = {
    "algorithm": {"name": "DQN", "gamma": 0.99, "training_iter": 2},
    "net": {
        "hid_layers": [32, 32],
        "lr": 1e-3,
        "update_type": "replace",
        "update_frequency": 10,
    },
    "env": {"state_dim": 4, "action_dim": 2},
    "meta": {"max_frame": 30, "batch_size": 32},
}


class ReplayStub:
    def __init__(self, state_dim, action_dim, size=256):
        self.states = torch.randn(size, state_dim)
        self.next_states = self.states + 0.1 * torch.randn(size, state_dim)
        self.actions = torch.randint(0, action_dim, (size,)).float()
        self.rewards = (self.states[:, 0] > 0).float()
        self.dones = (torch.rand(size) < 0.05).float()
        self.size = size

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return {
            "states": self.states[idx],
            "next_states": self.next_states[idx],
            "actions": self.actions[idx],
            "rewards": self.rewards[idx],
            "dones": self.dones[idx],
        }


class Session:
    def __init__(self, spec):
        torch.manual_seed(0)
        self.spec = spec
        algo_spec = spec["algorithm"]
        AlgoClass = ALGORITHMS[algo_spec["name"]]
        env = spec["env"]
        self.agent = AlgoClass(algo_spec, spec["net"], env["state_dim"], env["action_dim"])
        self.memory = ReplayStub(env["state_dim"], env["action_dim"])

    def run(self):
        meta = self.spec["meta"]
        for frame in range(meta["max_frame"]):
            batch = self.memory.sample(meta["batch_size"])
            loss = self.agent.train(batch)
            self.agent.update()
            if frame % 10 == 0:
                print(f"frame {frame} loss {loss:.4f}")


if __name__ == "__main__":
    session = Session(SPEC)
    session.run()
