import torch
from torch import nn


class SLCWATrainingLoop:
    def __init__(self, model, triples, num_entities, optimizer, margin=1.0, num_negs_per_pos=1):
        self.model = model
        self.triples = triples
        self.num_entities = num_entities
        self.optimizer = optimizer
        self.loss = nn.MarginRankingLoss(margin=margin)
        self.num_negs_per_pos = num_negs_per_pos

    def corrupt(self, pos_batch):
        neg = pos_batch.repeat_interleave(self.num_negs_per_pos, dim=0)
        which = torch.randint(0, 2, (neg.shape[0],)) * 2
        rand = torch.randint(0, self.num_entities, (neg.shape[0],))
        neg[torch.arange(neg.shape[0]), which] = rand
        return neg

    def _process_batch(self, pos_batch):
        neg_batch = self.corrupt(pos_batch)
        pos_scores = self.model.score_hrt(pos_batch).repeat_interleave(self.num_negs_per_pos, dim=0)
        neg_scores = self.model.score_hrt(neg_batch)
        target = torch.ones_like(pos_scores)
        loss = self.loss(pos_scores, neg_scores, target)
        return loss + self.model.collect_regularization_term()

    def train(self, num_epochs, batch_size):
        losses = []
        for epoch in range(num_epochs):
            self.model.train()
            epoch_loss = 0.0
            for idx in torch.randperm(self.triples.shape[0]).split(batch_size):
                self.optimizer.zero_grad()
                loss = self._process_batch(self.triples[idx])
                loss.backward()
                self.optimizer.step()
                epoch_loss += loss.item() * len(idx)
            losses.append(epoch_loss / self.triples.shape[0])
        return losses
