import torch
import torch.nn.functional as F
from torch.distributions import Categorical

from model import ActorCritic, RNDModel
from utils import global_grad_norm_


class RNDAgent:
    def __init__(self, obs_dim, n_actions, cfg):
        self.model = ActorCritic(obs_dim, n_actions)
        self.rnd = RNDModel(obs_dim)
        self.epoch = cfg["Epoch"]
        self.batch_size = cfg["BatchSize"]
        self.ppo_eps = cfg["PPOEps"]
        self.ent_coef = cfg["Entropy"]
        self.update_proportion = cfg["UpdateProportion"]
        self.max_grad_norm = cfg["MaxGradNorm"]
        self.optimizer = torch.optim.Adam(list(self.model.parameters()) + list(self.rnd.predictor.parameters()),
                                          lr=cfg["LearningRate"])

    def get_action(self, state):
        with torch.no_grad():
            policy, value_ext, value_int = self.model(state)
            action = Categorical(logits=policy).sample()
        return action, value_ext.squeeze(-1), value_int.squeeze(-1), policy

    def train_model(self, s_batch, target_ext, target_int, y_batch, adv_batch, next_obs_batch, old_policy):
        sample_range = torch.arange(s_batch.size(0))
        with torch.no_grad():
            log_prob_old = Categorical(logits=old_policy).log_prob(y_batch)
        for _ in range(self.epoch):
            perm = sample_range[torch.randperm(sample_range.numel())]
            for j in range(s_batch.size(0) // self.batch_size):
                idx = perm[self.batch_size * j:self.batch_size * (j + 1)]
                predict_next_feature, target_next_feature = self.rnd(next_obs_batch[idx])
                forward_loss = F.mse_loss(predict_next_feature, target_next_feature.detach(), reduction="none").mean(-1)
                mask = (torch.rand(forward_loss.size(0)) < self.update_proportion).float()
                forward_loss = (forward_loss * mask).sum() / mask.sum().clamp(min=1.0)

                policy, value_ext, value_int = self.model(s_batch[idx])
                m = Categorical(logits=policy)
                ratio = torch.exp(m.log_prob(y_batch[idx]) - log_prob_old[idx])
                surr1 = ratio * adv_batch[idx]
                surr2 = torch.clamp(ratio, 1.0 - self.ppo_eps, 1.0 + self.ppo_eps) * adv_batch[idx]
                actor_loss = -torch.min(surr1, surr2).mean()
                critic_loss = F.mse_loss(value_ext.sum(1), target_ext[idx]) + F.mse_loss(value_int.sum(1), target_int[idx])
                entropy = m.entropy().mean()

                self.optimizer.zero_grad()
                loss = actor_loss + 0.5 * critic_loss - self.ent_coef * entropy + forward_loss
                loss.backward()
                global_grad_norm_(list(self.model.parameters()) + list(self.rnd.predictor.parameters()))
                self.optimizer.step()
