import torch
import torch.nn as nn
import torch.nn.functional as F


class WordEmbedding(nn.Module):
    def __init__(self, ntoken, emb_dim):
        super().__init__()
        self.emb = nn.Embedding(ntoken + 1, emb_dim, padding_idx=ntoken)

    def forward(self, q):
        return self.emb(q)


class QuestionEmbedding(nn.Module):
    def __init__(self, in_dim, num_hid):
        super().__init__()
        self.rnn = nn.GRU(in_dim, num_hid, batch_first=True)

    def forward(self, w_emb):
        _, h = self.rnn(w_emb)
        return h.squeeze(0)


class Attention(nn.Module):
    def __init__(self, v_dim, q_dim, num_hid):
        super().__init__()
        self.v_proj = nn.Linear(v_dim, num_hid)
        self.q_proj = nn.Linear(q_dim, num_hid)
        self.linear = nn.Linear(num_hid, 1)

    def forward(self, v, q):
        joint = F.relu(self.v_proj(v)) * F.relu(self.q_proj(q)).unsqueeze(1)
        return F.softmax(self.linear(joint), dim=1)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(in_dim, hid_dim), nn.ReLU(), nn.Linear(hid_dim, out_dim))

    def forward(self, x):
        return self.main(x)


class BaseModel(nn.Module):
    def __init__(self, ntoken, v_dim, num_hid, num_ans):
        super().__init__()
        self.w_emb = WordEmbedding(ntoken, 32)
        self.q_emb = QuestionEmbedding(32, num_hid)
        self.v_att = Attention(v_dim, num_hid, num_hid)
        self.q_net = nn.Linear(num_hid, num_hid)
        self.v_net = nn.Linear(v_dim, num_hid)
        self.classifier = SimpleClassifier(num_hid, 2 * num_hid, num_ans)

    def forward(self, v, q):
        q_emb = self.q_emb(self.w_emb(q))
        att = self.v_att(v, q_emb)
        v_emb = (att * v).sum(1)
        joint = F.relu(self.q_net(q_emb)) * F.relu(self.v_net(v_emb))
        return self.classifier(joint)


class GenB(nn.Module):
    def __init__(self, ntoken, v_dim, num_hid, num_ans):
        super().__init__()
        self.num_hid = num_hid
        self.w_emb = WordEmbedding(ntoken, 32)
        self.q_emb = QuestionEmbedding(32, num_hid)
        self.v_att = Attention(v_dim, num_hid, num_hid)
        self.q_net = nn.Linear(num_hid, num_hid)
        self.v_net = nn.Linear(v_dim, num_hid)
        self.generate = nn.Sequential(nn.Linear(2 * num_hid, num_hid), nn.ReLU())
        self.classifier = SimpleClassifier(num_hid, 2 * num_hid, num_ans)

    def forward(self, v, q, gen=True):
        q_emb = self.q_emb(self.w_emb(q))
        att = self.v_att(v, q_emb)
        v_emb = (att * v).sum(1)
        joint = F.relu(self.q_net(q_emb)) * F.relu(self.v_net(v_emb))
        if gen:
            z = torch.randn(joint.size(0), self.num_hid, device=joint.device)
            joint = self.generate(torch.cat([joint, z], dim=1))
        return self.classifier(joint)


class Discriminator(nn.Module):
    def __init__(self, num_ans, num_hid):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2 * num_ans, num_hid), nn.LeakyReLU(0.2), nn.Linear(num_hid, 1)
        )

    def forward(self, pred, a):
        return self.net(torch.cat([torch.sigmoid(pred), a], dim=1))
