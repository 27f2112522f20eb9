import torch

from net import MLPNet, copy, polyak_update


class VanillaDQN:
    def __init__(self, algo_spec, net_spec, state_dim, action_dim):
        self.gamma = algo_spec["gamma"]
        self.training_iter = algo_spec["training_iter"]
        self.net_spec = net_spec
        self.state_dim = state_dim
        self.action_dim = action_dim
        self.frame = 0
        self.init_nets()

    def init_nets(self):
        self.net = MLPNet(self.net_spec, self.state_dim, self.action_dim)
        self.net_names = ["net"]

    def calc_q_loss(self, batch):
        states = batch["states"]
        next_states = batch["next_states"]
        q_preds = self.net(states)
        with torch.no_grad():
            next_q_preds = self.net(next_states)
        act_q_preds = q_preds.gather(-1, batch["actions"].long().unsqueeze(-1)).squeeze(-1)
        max_next_q_preds, _ = next_q_preds.max(dim=-1, keepdim=False)
        max_q_targets = batch["rewards"] + self.gamma * (1 - batch["dones"]) * max_next_q_preds
        return self.net.loss_fn(act_q_preds, max_q_targets)

    def train(self, batch):
        total = 0.0
        for _ in range(self.training_iter):
            loss = self.calc_q_loss(batch)
            self.net.train_step(loss)
            total += loss.item()
        return total / self.training_iter

    def update(self):
        self.frame += 1


class DQNBase(VanillaDQN):
    def init_nets(self):
        self.net = MLPNet(self.net_spec, self.state_dim, self.action_dim)
        self.target_net = MLPNet(self.net_spec, self.state_dim, self.action_dim)
        copy(self.net, self.target_net)
        self.net_names = ["net", "target_net"]
        self.online_net = self.net
        self.eval_net = self.net

    def calc_q_loss(self, batch):
        states = batch["states"]
        next_states = batch["next_states"]
        q_preds = self.net(states)
        with torch.no_grad():
            online_next_q_preds = self.online_net(next_states)
            next_q_preds = self.eval_net(next_states)
        act_q_preds = q_preds.gather(-1, batch["actions"].long().unsqueeze(-1)).squeeze(-1)
        online_actions = online_next_q_preds.argmax(dim=-1, keepdim=True)
        max_next_q_preds = next_q_preds.gather(-1, online_actions).squeeze(-1)
        max_q_targets = batch["rewards"] + self.gamma * (1 - batch["dones"]) * max_next_q_preds
        return self.net.loss_fn(act_q_preds, max_q_targets)

    def update(self):
        self.frame += 1
        if self.net.update_type == "replace":
            if self.frame % self.net.update_frequency == 0:
                copy(self.net, self.target_net)
        elif self.net.update_type == "polyak":
            polyak_update(self.net, self.target_net, self.net.polyak_coef)


class DQN(DQNBase):
    pass


class DoubleDQN(DQN):
    def init_nets(self):
        super().init_nets()
        self.online_net = self.net
        self.eval_net = self.target_net


ALGORITHMS = {"VanillaDQN": VanillaDQN, "DQN": DQN, "DoubleDQN": DoubleDQN}
