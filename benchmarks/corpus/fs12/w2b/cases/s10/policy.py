import torch
import torch.nn.functional as F

from networks import AgentNet, QMixNet


class QMIX:
    def __init__(self, args):
        self.args = args
        self.n_agents = args["n_agents"]
        self.eval_rnn = AgentNet(args["obs_dim"], args["n_actions"], args["rnn_hidden"])
        self.target_rnn = AgentNet(args["obs_dim"], args["n_actions"], args["rnn_hidden"])
        self.eval_qmix_net = QMixNet(self.n_agents, args["state_dim"], args["mix_embed"])
        self.target_qmix_net = QMixNet(self.n_agents, args["state_dim"], args["mix_embed"])
        self.target_rnn.load_state_dict(self.eval_rnn.state_dict())
        self.target_qmix_net.load_state_dict(self.eval_qmix_net.state_dict())
        self.eval_parameters = list(self.eval_qmix_net.parameters()) + list(self.eval_rnn.parameters())
        self.optimizer = torch.optim.RMSprop(self.eval_parameters, lr=args["lr"])

    def _agent_q(self, net, obs):
        b, t, n, _ = obs.shape
        h = torch.zeros(b * n, self.args["rnn_hidden"])
        qs = []
        for step in range(t):
            q, h = net(obs[:, step].reshape(b * n, -1), h)
            qs.append(q.view(b, n, -1))
        return torch.stack(qs, dim=1)

    def learn(self, batch, train_step):
        obs, obs_next = batch["o"], batch["o_next"]
        s, s_next = batch["s"], batch["s_next"]
        u, r, done = batch["u"], batch["r"], batch["terminated"]
        b, t = r.shape[:2]

        q_evals = self._agent_q(self.eval_rnn, obs)
        with torch.no_grad():
            q_targets = self._agent_q(self.target_rnn, obs_next)
        q_evals = torch.gather(q_evals, dim=3, index=u).squeeze(3)
        q_targets = q_targets.max(dim=3)[0]

        q_total_eval = self.eval_qmix_net(q_evals.reshape(b * t, -1), s.reshape(b * t, -1)).view(b, t)
        with torch.no_grad():
            q_total_target = self.target_qmix_net(q_targets.reshape(b * t, -1), s_next.reshape(b * t, -1)).view(b, t)
        targets = r + self.args["gamma"] * q_total_target * (1 - done)

        loss = F.mse_loss(q_total_eval, targets)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.eval_parameters, self.args["grad_norm_clip"])
        self.optimizer.step()

        if train_step > 0 and train_step % self.args["target_update_cycle"] == 0:
            self.update_target()
        return loss.item()

    def update_target(self):
        self.target_rnn.load_state_dict(self.eval_rnn.state_dict())
        self.target_qmix_net.load_state_dict(self.target_qmix_net.state_dict())
