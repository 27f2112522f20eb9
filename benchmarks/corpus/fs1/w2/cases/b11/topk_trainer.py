import torch

from base_trainer import BaseTrainer


class TopKTrainer(BaseTrainer):
    def __init__(self, model, lr, k_aux, lambda_aux, dead_after):
        super().__init__(model, lr)
        self.k_aux = k_aux
        self.lambda_aux = lambda_aux
        self.dead_after = dead_after
        self.steps_since_fired = torch.zeros(model.W_enc.size(1), dtype=torch.long)

    def aux_loss(self, x, recon, acts):
        dead = self.steps_since_fired > self.dead_after
        if dead.sum() == 0:
            return recon.new_zeros(())
        k = min(self.k_aux, int(dead.sum()))
        dead_acts = self.model.topk(acts * dead, k)
        residual = (x - recon).detach()
        aux_recon = dead_acts @ self.model.W_dec
        return (aux_recon - residual).pow(2).sum(-1).mean() / residual.pow(2).sum(-1).mean()

    def _calculate_loss_and_log(self, batch, log):
        recon, z, acts = self.model(batch)
        fired = (z > 0).any(0)
        self.steps_since_fired = torch.where(fired, 0, self.steps_since_fired + 1)
        reconstruction_loss = (recon - batch).pow(2).sum(-1).mean()
        aux_loss = self.aux_loss(batch, recon, acts)
        loss = reconstruction_loss + self.lambda_aux * aux_loss

        log_dict = None
        if log:
            log_dict = {"train/recon": reconstruction_loss.item(), "train/aux_loss": aux_loss.item(),
                        "train/dead": int((self.steps_since_fired > self.dead_after).sum())}
        return reconstruction_loss, log_dict
