import torch
import torch.nn as nn
import torch.nn.functional as F

from similarity import cos_sim, pairwise_euclidean_sim, pairwise_manhattan_sim


class TripletDistanceMetric:
    COSINE = staticmethod(lambda x, y: 1 - cos_sim(x, y))
    EUCLIDEAN = staticmethod(lambda x, y: -pairwise_euclidean_sim(x, y))
    MANHATTAN = staticmethod(lambda x, y: -pairwise_manhattan_sim(x, y))


class TripletLoss(nn.Module):
    def __init__(self, model, distance_metric=TripletDistanceMetric.EUCLIDEAN, triplet_margin=5.0):
        super().__init__()
        self.model = model
        self.distance_metric = distance_metric
        self.triplet_margin = triplet_margin

    def forward(self, features):
        rep_anchor, rep_pos, rep_neg = [self.model(f) for f in features]
        distance_pos = self.distance_metric(rep_anchor, rep_pos)
        distance_neg = self.distance_metric(rep_anchor, rep_neg)
        losses = F.relu(distance_pos - distance_neg + self.triplet_margin)
        return losses.mean()
